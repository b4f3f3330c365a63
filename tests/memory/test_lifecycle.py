"""Forgetting on a clock: memories that expire, the hourly sweep that deletes them after a grace
period, and decay that hides faded memories (reversibly). Time is moved by writing timestamps,
never by waiting."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from django_q.models import Schedule

from memory.ingest.request import AddRequest
from memory.lifecycle import lifecycle_sweep
from memory.models import Entity, HistoryAction, Memory, MemoryAccess, MemoryHistory
from memory.search.conductor import memory_search
from memory.selectors import memory_list
from memory.services.corrections import memory_restore
from rbac.models import Role
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def agent():
    workspace = make_workspace("crew")
    principal, token = make_agent_with_token("scribe")
    grant(principal, workspace, Role.WORKER)
    client = bearer_client(token.raw)
    client.defaults["HTTP_HOST"] = "127.0.0.1"
    return Caller("scribe", client)


def remember(agent: Caller, message: str, **options):
    return agent.call("add_memory", user_id="ada", message=message, group_id="crew", extract=False, **options)


def recalled(agent: Caller, query: str) -> list[dict]:
    answer = agent.call("search_memory", user_id="ada", query=query)
    assert answer.status_code == 200, answer.json()
    return answer.json()["results"]


def expire(memory_id: str, *, ago: timedelta) -> None:
    Memory.objects.filter(pk=memory_id).update(expires_at=timezone.now() - ago)


def test_a_memory_with_a_ttl_is_recalled_until_it_expires_then_on_no_read_path(agent):
    written = remember(agent, "The staging server password rotates on Fridays.", ttl=3600)
    assert written.status_code == 200, written.json()
    (memory_id,) = written.json()["memory_ids"]

    (found,) = recalled(agent, "When does the staging password rotate?")
    shown = agent.call("get_memory", method="get", memory_id=memory_id).json()["memory"]
    expires = Memory.objects.get(pk=memory_id).expires_at
    assert found["id"] == memory_id
    assert datetime.fromisoformat(found["expires_at"]) == datetime.fromisoformat(shown["expires_at"]) == expires
    assert timedelta(minutes=59) < expires - timezone.now() <= timedelta(hours=1)

    expire(memory_id, ago=timedelta(hours=1))

    assert recalled(agent, "When does the staging password rotate?") == []
    assert agent.call("get_memory", method="get", memory_id=memory_id).status_code == 404
    assert Memory.objects.filter(pk=memory_id).exists()  # hidden, not yet deleted


def test_an_expiry_moment_is_kept_as_given(agent):
    written = remember(agent, "The conference badge is valid for the week.", expires_at="2999-06-01T12:00:00+02:00")

    (memory_id,) = written.json()["memory_ids"]
    shown = agent.call("get_memory", method="get", memory_id=memory_id).json()["memory"]
    assert shown["expires_at"] == "2999-06-01T10:00:00Z"


@pytest.mark.parametrize(
    ("options", "code", "field"),
    [
        ({"ttl": 60, "expires_at": "2999-01-01T00:00:00Z"}, "conflicting_expiry", "ttl"),
        ({"expires_at": "2001-01-01T00:00:00Z"}, "expiry_in_past", "expires_at"),
        ({"expires_at": "next week"}, "invalid", "expires_at"),
        ({"ttl": 0}, "min_value", "ttl"),
        ({"ttl": 10**12}, "max_value", "ttl"),
        ({"ttl": "soon"}, "invalid", "ttl"),
    ],
)
def test_a_bad_expiry_is_refused_with_its_field_and_nothing_is_written(agent, options, code, field):
    answer = remember(agent, "I keep my keys in the blue bowl.", **options)

    assert answer.status_code == 400
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert Memory.objects.count() == 0


def test_saying_a_fact_again_renews_its_expiry(agent):
    (memory_id,) = remember(agent, "I am working from the Lisbon office.", ttl=60).json()["memory_ids"]

    again = remember(agent, "I am working from the Lisbon office.", ttl=7200).json()
    assert again["memory_ids"] == [] and again["deduped"] == [memory_id]
    assert Memory.objects.get(pk=memory_id).expires_at - timezone.now() > timedelta(hours=1)

    remember(agent, "I am working from the Lisbon office.", ttl=60)
    assert Memory.objects.get(pk=memory_id).expires_at - timezone.now() > timedelta(hours=1)  # never shortened

    remember(agent, "I am working from the Lisbon office.")
    assert Memory.objects.get(pk=memory_id).expires_at is None


def test_a_fact_said_again_after_it_expired_is_stored_anew(agent):
    (old,) = remember(agent, "My parking spot is B12.", ttl=60).json()["memory_ids"]
    expire(old, ago=timedelta(minutes=5))

    answer = remember(agent, "My parking spot is B12.")

    assert answer.status_code == 200, answer.json()
    (new,) = answer.json()["memory_ids"]
    assert new != old
    assert [r["id"] for r in recalled(agent, "Where do I park?")] == [new]
    forgotten = MemoryHistory.objects.get(memory_id=old)
    assert (forgotten.action, forgotten.reason) == (HistoryAction.FORGET, "expired")


def test_a_later_message_of_a_conversation_renews_an_expiry_or_stores_anew_what_expired(agent):
    (lasting,) = remember(agent, "I am working from the Lisbon office.", ttl=60).json()["memory_ids"]
    (expired,) = remember(agent, "My parking spot is B12.", ttl=60).json()["memory_ids"]
    expire(expired, ago=timedelta(minutes=5))

    answer = agent.call(
        "add_conversation",
        user_id="ada",
        group_id="crew",
        extract=False,
        messages=[
            {"content": "Good morning."},
            {"content": "I am working from the Lisbon office."},
            {"content": "My parking spot is B12."},
        ],
    )

    assert answer.status_code == 200, answer.json()
    _, again, anew = answer.json()["results"]
    assert again["deduped"] == [lasting] and Memory.objects.get(pk=lasting).expires_at is None
    assert anew["memory_ids"] != [expired] and len(anew["memory_ids"]) == 1
    forgotten = MemoryHistory.objects.get(memory_id=expired)
    assert (forgotten.action, forgotten.reason) == (HistoryAction.FORGET, "expired")


def test_the_sweep_deletes_what_expired_longer_ago_than_the_grace_period(agent):
    ids = {
        text: remember(agent, text, ttl=60).json()["memory_ids"][0]
        for text in ("Zanzibar trip code is ZX-9.", "Quokka visit is booked.", "The Ostrava meetup is open.")
    }
    expire(ids["Zanzibar trip code is ZX-9."], ago=timedelta(days=8))
    expire(ids["Quokka visit is booked."], ago=timedelta(days=6))
    Entity.objects.create(name="Zanzibar", normalized_name="zanzibar", rbac_scope="x")  # mentioned by nothing

    with override_settings(HELIX_EXPIRY_GRACE_DAYS=7):
        assert lifecycle_sweep() == {"expired_deleted": 1, "decayed": 0}

    assert set(Memory.objects.values_list("content", flat=True)) == {
        "Quokka visit is booked.",
        "The Ostrava meetup is open.",
    }
    assert not MemoryHistory.objects.filter(memory_id=ids["Zanzibar trip code is ZX-9."]).exists()
    assert lifecycle_sweep()["expired_deleted"] == 0


def test_the_sweep_deletes_the_names_only_expired_memories_mentioned(add, team):
    add("I visited Reykjavik with Margarethe.", user_id="ada")
    add("Margarethe sent me a postcard.", user_id="ada")
    mentioned = {e.name for e in Entity.objects.all()}
    assert {"Reykjavik", "Margarethe"} <= mentioned
    trip = Memory.objects.get(content__contains="Reykjavik")
    Memory.objects.filter(pk=trip.pk).update(expires_at=timezone.now() - timedelta(days=30))

    lifecycle_sweep()

    left = set(Entity.objects.values_list("name", flat=True))
    assert "Reykjavik" not in left and "Margarethe" in left


def _aged(agent: Caller, text: str, *, memory_type: str = "event", importance: float = 0.1, days: int = 120) -> str:
    (memory_id,) = remember(agent, text).json()["memory_ids"]
    Memory.objects.filter(pk=memory_id).update(
        memory_type=memory_type, importance=importance, created_at=timezone.now() - timedelta(days=days)
    )
    return memory_id


@override_settings(HELIX_DECAY_AFTER_DAYS=90, HELIX_DECAY_MAX_IMPORTANCE=0.3, HELIX_DECAY_TYPES=["event"])
def test_decay_hides_faded_episodes_and_spares_what_matters_or_was_recalled(agent):
    faded = _aged(agent, "I had a sandwich at the station kiosk.")
    recalled_lately = _aged(agent, "I watched the regatta from the pier.")
    MemoryAccess.objects.create(memory_id=recalled_lately, access_count=1, last_accessed_at=timezone.now())
    important = _aged(agent, "I proposed to Ines at the lighthouse.", importance=0.9)
    a_fact = _aged(agent, "My blood type is A negative.", memory_type="fact")
    recent = _aged(agent, "I bought stamps at the post office.", days=10)

    assert lifecycle_sweep()["decayed"] == 1

    hidden = set(Memory.objects.filter(deleted_at__isnull=False).values_list("id", flat=True))
    assert {str(i) for i in hidden} == {faded}
    assert {recalled_lately, important, a_fact, recent} <= {str(m.id) for m in memory_list_all()}
    history = MemoryHistory.objects.get(memory_id=faded)
    assert history.action == HistoryAction.FORGET and history.details["rule"] == "decay"


@override_settings(HELIX_DECAY_AFTER_DAYS=90, HELIX_DECAY_TYPES=["event"])
def test_a_decayed_memory_restored_by_an_admin_stays(agent):
    faded = _aged(agent, "I had a sandwich at the station kiosk.")
    lifecycle_sweep()
    admin = make_principal("root", admin=True).user

    memory_restore(actor=admin, memory_id=faded, reason="still wanted")
    lifecycle_sweep()

    assert Memory.objects.get(pk=faded).deleted_at is None
    assert [r["id"] for r in memory_search(actor=admin, query="station kiosk sandwich", user_id="ada")["results"]] == [
        faded
    ]


def test_decay_is_off_by_default(agent):
    _aged(agent, "I had a sandwich at the station kiosk.", days=3000)

    assert lifecycle_sweep()["decayed"] == 0


def test_a_buffered_write_keeps_its_expiry():
    moment = timezone.now() + timedelta(days=2)
    request = AddRequest(user_id="ada", message="hello", expires_at=moment)

    assert AddRequest.from_payload(user_id="ada", payload=request.as_payload()).expires_at == moment


def test_the_worker_sweeps_every_hour():
    (schedule,) = Schedule.objects.filter(func="memory.tasks.lifecycle_sweep")
    assert (schedule.schedule_type, schedule.repeats) == (Schedule.HOURLY, -1)


def memory_list_all():
    admin = make_principal("lister", admin=True).user
    return memory_list(actor=admin, user_id="ada", limit=100)

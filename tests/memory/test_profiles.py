"""Profiles over HTTP: a static and a dynamic part per owner and workspace, each line citing its
memories, refreshed by the worker after writes and forgets (here the queue runs inline), never
showing what the reader cannot see; build_context and answer_question put them first."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from memory.models import Memory, Profile
from memory.profiles import profile_refresh, profiles_touch
from memory.providers import reset_providers
from memory.services.requeue import stranded_requeue
from rbac.models import Role
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_workspace
from tests.openai_compatible_server import chat_answer, error_answer

CHAT = "/v1/chat/completions"
pytestmark = pytest.mark.django_db


def caller(name: str, *, workspaces=(), role=Role.WORKER) -> Caller:
    principal, token = make_agent_with_token(name)
    for workspace in workspaces:
        grant(principal, workspace, role)
    client = bearer_client(token.raw)
    client.defaults["HTTP_HOST"] = "127.0.0.1"
    return Caller(name, client)


@pytest.fixture
def crew():
    return make_workspace("crew")


@pytest.fixture
def scribe(crew, django_capture_on_commit_callbacks):
    agent = caller("scribe", workspaces=[crew])

    def remember(message: str, group_id: str = "crew", **options):
        with django_capture_on_commit_callbacks(execute=True):
            answer = agent.call("add_memory", user_id="ada", message=message, group_id=group_id, **options)
        assert answer.status_code == 200, answer.json()
        return answer.json()

    agent.remember = remember  # type: ignore[attr-defined]
    return agent


def profile(agent: Caller, **options) -> dict:
    answer = agent.call("get_profile", method="get", user_id="ada", **options)
    assert answer.status_code == 200, answer.json()
    (found,) = answer.json()["profiles"]
    return found


def texts(lines: list[dict]) -> list[str]:
    return [line["text"] for line in lines]


def test_a_profile_has_stable_facts_and_what_is_going_on_each_citing_its_memories(scribe):
    scribe.remember("I am allergic to penicillin.")
    scribe.remember("I prefer window seats on long flights.")
    scribe.remember("My goal is to finish the marathon training plan.")

    found = profile(scribe)

    static, dynamic = texts(found["static"]), texts(found["dynamic"])
    assert any("penicillin" in t for t in static) and any("window seats" in t for t in static)
    assert any("marathon" in t for t in dynamic)
    for line in found["static"] + found["dynamic"]:
        cited = Memory.objects.filter(id__in=line["memory_ids"])
        assert [m.content for m in cited] == [line["text"]]
    assert (found["method"], found["stale"], found["workspace"]) == ("rules", False, "crew")


def test_a_superseded_or_forgotten_memory_drops_out_after_the_refresh_a_write_queues(
    scribe, django_capture_on_commit_callbacks
):
    scribe.remember("I live in Paris.")
    scribe.remember("I prefer tea to coffee.")
    assert any("Paris" in t for t in texts(profile(scribe)["static"]))

    scribe.remember("I live in Berlin now.")
    tea = Memory.objects.get(content__contains="tea")
    with django_capture_on_commit_callbacks(execute=True):
        assert scribe.call("forget_memory", memory_id=str(tea.id)).status_code == 200

    static = texts(profile(scribe)["static"])
    assert any("Berlin" in t for t in static)
    assert not any("Paris" in t or "tea" in t for t in static)


def test_old_events_leave_the_dynamic_part(scribe):
    scribe.remember("My goal is to learn Portuguese.")
    Memory.objects.filter(content__contains="Portuguese").update(valid_from=timezone.now() - timedelta(days=90))
    profiles_touch(user_id="ada", workspace_ids=[Profile.objects.get().workspace_id])
    Profile.objects.update(refreshed_at=None)  # read builds it again, as a first read does

    assert profile(scribe)["dynamic"] == []


def test_a_profile_holds_only_what_its_workspace_shows(scribe, crew):
    secret = make_workspace("vault")
    insider = caller("insider", workspaces=[crew, secret])
    insider.call("add_memory", user_id="ada", message="I keep the launch codes in the red binder.", group_id="vault")
    scribe.remember("I am allergic to penicillin.")

    mine = profile(scribe)

    assert not any("binder" in line["text"] for line in mine["static"] + mine["dynamic"])
    outsider = caller("outsider")
    assert outsider.call("get_profile", method="get", user_id="ada").json()["profiles"] == []
    unknown = scribe.call("get_profile", method="get", user_id="ada", group_id="vault")
    assert unknown.status_code == 404 and unknown.json()["error"]["field"] == "group_id"


def test_a_burst_of_writes_queues_one_refresh(scribe, crew):
    Profile.objects.create(workspace=crew, user_id="ada", stale=False)
    queued = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("memory.profiles.task_enqueue_after_commit", lambda *args, **kwargs: queued.append(args))
        for n in range(3):
            scribe.remember(f"I visited museum number {n} this week.")

    assert len(queued) == 1 and Profile.objects.get().stale is True


def test_a_stale_profile_whose_refresh_never_reached_the_queue_is_refreshed_by_the_sweep(
    scribe, crew, settings, django_capture_on_commit_callbacks
):
    scribe.remember("I am allergic to penicillin.")
    long_ago = timezone.now() - timedelta(seconds=settings.HELIX_REQUEUE_AFTER_SECONDS + 1)
    Profile.objects.update(stale=True, refreshed_at=long_ago)  # a write marked it; its refresh was never queued

    with django_capture_on_commit_callbacks(execute=True):  # the test settings run tasks inline
        swept = stranded_requeue()

    refreshed = Profile.objects.get()
    assert swept == {"pending_inputs": 0, "profiles": 1, "enrichments": 0}
    assert refreshed.stale is False and refreshed.refreshed_at > long_ago
    assert any("penicillin" in t for t in texts(profile(scribe)["static"]))
    assert stranded_requeue() == {"pending_inputs": 0, "profiles": 0, "enrichments": 0}


def test_a_profile_stale_since_a_recent_refresh_is_left_to_the_refresh_already_queued(scribe, crew):
    scribe.remember("I am allergic to penicillin.")
    Profile.objects.update(stale=True, refreshed_at=timezone.now())

    assert stranded_requeue() == {"pending_inputs": 0, "profiles": 0, "enrichments": 0}


def test_build_context_puts_the_profile_first(scribe):
    scribe.remember("I am allergic to penicillin.")
    scribe.remember("I drink two cups of coffee every morning.")

    packed = scribe.call(
        "build_context", user_id="ada", query="what should the doctor know", include_profile=True
    ).json()

    assert packed["context"].startswith("Profile:\n- [")
    assert any("penicillin" in line["text"] for line in packed["profile"])
    cited = {i for line in packed["profile"] for i in line["memory_ids"]}
    assert not cited & {m["id"] for m in packed["memories"]}, "a memory is not packed twice"
    assert packed["tokens"] <= packed["token_budget"]


@pytest.fixture
def llm_server(llm_server):
    with override_settings(HELIX_PROFILE_LLM=True):
        yield llm_server


def test_the_worker_condenses_the_profile_by_llm_and_lines_citing_nothing_given_are_dropped(scribe, llm_server):
    with override_settings(HELIX_LLM="none"):
        reset_providers()
        scribe.remember("I am allergic to penicillin.")
    reset_providers()
    stored = Memory.objects.get()
    allergy, invented = str(stored.id), "00000000-0000-4000-8000-000000000000"
    lines = [
        {"text": "Allergic to penicillin", "memory_ids": [allergy]},
        {"text": "Owns a yacht", "memory_ids": [invented]},
    ]
    llm_server.queue(CHAT, chat_answer(json.dumps({"static": lines, "dynamic": []})))

    profile_refresh(profile_id=Profile.objects.get().pk)

    found = profile(scribe)
    assert found["method"] == "llm"
    assert found["static"] == [{"text": "Allergic to penicillin", "memory_ids": [allergy], "kind": stored.memory_type}]
    prompt = llm_server.requests_to(CHAT)[0]["messages"][-1]["content"]
    assert f"[{allergy}] ({stored.memory_type}) {stored.content}" in prompt


def test_a_first_read_never_waits_on_the_llm_and_a_failed_llm_leaves_the_rules(scribe, llm_server):
    with override_settings(HELIX_LLM="none"):
        reset_providers()
        scribe.remember("I am allergic to penicillin.")
    reset_providers()
    Profile.objects.all().delete()

    first = profile(scribe)

    assert llm_server.requests_to(CHAT) == []
    assert (first["method"], first["stale"]) == ("rules", True)
    llm_server.queue(CHAT, error_answer(500))
    profile_refresh(profile_id=Profile.objects.get().pk)
    after = profile(scribe)
    assert after["method"] == "rules" and texts(after["static"]) == [Memory.objects.get().content]

"""Memories in the room: search as a chosen principal never shows more than that principal may
see; a memory's page shows its lifecycle, edges, history and the run that wrote it; corrections
follow the API's rules and are audited."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from memory.charter.models import ContradictionReview
from memory.models import Edge, EdgeType, Memory
from rbac.models import Principal, Workspace
from stewardship.models import AuditEntry
from tests.factories import make_principal
from tests.stewardship.pages.conftest import add_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(client):
    client.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)
    return client


def _add(api, actor: str, message: str, user_id: str = "bob") -> str:
    return add_as(api, actor, message, user_id)


def _result_ids(html: str) -> list[str]:
    return re.findall(r'href="/steward/memories/([0-9a-f-]{36})/\?as=', html)


def test_search_as_a_principal_shows_only_what_it_may_see(steward, two_teams):
    red = _add(two_teams["red"], "red", "Bob's locker code is 4411.")
    blue = _add(two_teams["blue"], "blue", "Bob's locker is on the third floor.")

    as_red = steward.get(
        "/steward/memories/", {"as": "red", "query": "Bob's locker", "user_id": "bob"}
    ).content.decode()
    as_ada = steward.get(
        "/steward/memories/", {"as": "ada", "query": "Bob's locker", "user_id": "bob"}
    ).content.decode()

    assert _result_ids(as_red) == [red]
    assert set(_result_ids(as_ada)) == {red, blue}, "a global admin sees both"
    assert "cosine" in as_red and "vector rank" in as_red, "every signal is shown"
    assert steward.get(f"/steward/memories/{blue}/", {"as": "red"}).status_code == 404


def test_bad_search_input_is_named_inline(steward, two_teams):
    html = steward.get("/steward/memories/", {"as": "red", "query": "x", "limit": "1000"}).content.decode()
    assert 'role="alert"' in html and "limit" in html

    html = steward.get("/steward/memories/", {"as": "nobody", "query": "x"}).content.decode()
    assert "No active principal by this name" in html


def test_a_memory_page_shows_lifecycle_edges_history_the_run_and_the_graph_data(steward, two_teams):
    old = _add(two_teams["red"], "red", "Bob lives in Lisbon.")
    new = _add(two_teams["red"], "red", "Bob moved to Porto.")

    html = steward.get(f"/steward/memories/{old}/").content.decode()

    assert "superseded" in html and "SUPERSEDES" in html
    run_id = Memory.objects.get(pk=old).run_id
    assert f'href="/steward/runs/{run_id}/"' in html, "the run that wrote it"
    graph = json.loads(
        re.search(r'<script id="memory-graph-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    )
    assert {node["id"] for node in graph["nodes"]} == {old, new}
    assert [(e["source"], e["target"], e["type"]) for e in graph["edges"]] == [(new, old, "SUPERSEDES")]
    assert next(n for n in graph["nodes"] if n["id"] == old)["superseded"] is True


def test_correct_forget_and_restore_keep_history_and_are_audited(steward, two_teams):
    memory_id = _add(two_teams["red"], "red", "Bob's badge number is 7781.")

    corrected = steward.post(
        f"/steward/memories/{memory_id}/correct/",
        {"action": "correct", "content": "Bob's badge number is 7718.", "reason": "typo"},
    )
    forgot = steward.post(f"/steward/memories/{memory_id}/correct/", {"action": "forget", "reason": "left"})
    searched = two_teams["red"].post(
        "/api/v1/search_memory", {"actor_id": "red", "user_id": "bob", "query": "badge number"}, format="json"
    )
    restored = steward.post(f"/steward/memories/{memory_id}/correct/", {"action": "restore", "reason": "back"})

    assert [corrected.status_code, forgot.status_code, restored.status_code] == [302, 302, 302]
    assert memory_id not in [r["id"] for r in searched.json()["results"]], "forgotten memories leave the API"
    memory = Memory.objects.get(pk=memory_id)
    assert memory.content == "Bob's badge number is 7718." and memory.deleted_at is None
    assert [h.action for h in memory.history.all()] == ["CORRECT", "FORGET", "RESTORE"]
    trail = list(AuditEntry.objects.order_by("id").values_list("action", "before", "after"))
    assert [t[0] for t in trail] == ["memory.correct", "memory.forget", "memory.restore"]
    assert trail[0][1]["content"] == "Bob's badge number is 7781." and trail[0][2]["content"].endswith("7718.")
    assert (trail[1][2]["forgotten"], trail[2][2]["forgotten"]) == (True, False)
    page = steward.get(f"/steward/memories/{memory_id}/").content.decode()
    assert "CORRECT" in page and "FORGET" in page and "RESTORE" in page


def test_a_correction_refused_by_the_rules_is_shown_inline_and_changes_nothing(steward, two_teams):
    memory_id = _add(two_teams["red"], "red", "Bob's desk is 4B.")
    other = _add(two_teams["red"], "red", "Bob's chair is blue.")

    answer = steward.post(
        f"/steward/memories/{memory_id}/correct/",
        {"action": "correct", "content": "Bob's chair is blue."},
        headers={"HX-Request": "true"},
    )

    assert answer.status_code == 409 and "duplicate" in answer.content.decode()
    assert Memory.objects.get(pk=memory_id).content == "Bob's desk is 4B." and other
    assert not AuditEntry.objects.exists()


# --- states: every page and list that shows a memory says what state it is in, and why ---------


def _state_html(steward, memory_id: str, **params) -> str:
    html = steward.get(f"/steward/memories/{memory_id}/", params).content.decode()
    found = re.search(r'<dd id="memory-state">(.*?)</dd>', html, re.S)
    assert found, html
    return found.group(1)


def test_a_retracted_memory_says_so_with_what_took_it_back_and_its_review(steward, two_teams):
    allergy = _add(two_teams["red"], "red", "I am allergic to peanuts.", user_id="alice")
    taken_back = _add(two_teams["red"], "red", "I'm not allergic to peanuts after all.", user_id="alice")
    review = ContradictionReview.objects.get(to_memory_id=allergy)

    state = _state_html(steward, allergy)

    assert 'data-state="retracted"' in state and "current" not in state
    assert f'href="/steward/memories/{taken_back}/"' in state
    assert f'href="/steward/reviews/#review-{review.id}"' in state and "review open" in state
    listed = steward.get("/steward/memories/", {"as": "red", "query": "peanuts", "user_id": "alice"}).content.decode()
    row = next(r for r in listed.split("<tr") if f"/steward/memories/{allergy}/" in r)
    assert 'data-state="retracted"' in row and f"/steward/memories/{taken_back}/" in row


def test_a_superseded_memory_links_the_later_one(steward, two_teams):
    old = _add(two_teams["red"], "red", "Bob lives in Lisbon.")
    new = _add(two_teams["red"], "red", "Bob moved to Porto.")

    state = _state_html(steward, old)

    assert 'data-state="superseded"' in state and f'href="/steward/memories/{new}/"' in state
    assert 'data-state="current"' in _state_html(steward, new)


def test_forgotten_and_expired_memories_say_so(steward, two_teams):
    forgotten = _add(two_teams["red"], "red", "Bob's locker code is 4411.")
    expired = _add(two_teams["red"], "red", "Bob parks in bay 12 this week.")
    assert (
        two_teams["red"].post("/api/v1/forget_memory", {"actor_id": "red", "memory_id": forgotten}).status_code == 200
    )
    Memory.objects.filter(pk=expired).update(expires_at=timezone.now() - timedelta(hours=1))

    assert 'data-state="forgotten"' in _state_html(steward, forgotten)
    assert 'data-state="expired"' in _state_html(steward, expired)


def test_a_contradicted_memory_links_the_open_review(steward, two_teams):
    older = _add(two_teams["red"], "red", "Bob's team meets on Mondays.")
    newer = _add(two_teams["red"], "red", "Bob's standup is at nine.")
    first, second = Memory.objects.get(pk=older), Memory.objects.get(pk=newer)
    Edge.objects.create(source=second, target=first, edge_type=EdgeType.CONTRADICTS, confidence=0.8)
    review = ContradictionReview.objects.create(
        from_memory=second, to_memory=first, rbac_scope=first.rbac_scope,
        workspace=Workspace.objects.get(slug="red"), conflict_kind="fact:meeting",
    )  # fmt: skip

    state = _state_html(steward, older)

    assert 'data-state="contradicted"' in state and f"#review-{review.id}" in state
    assert f'href="/steward/memories/{newer}/"' in state


def test_a_view_as_page_names_no_cause_that_principal_cannot_open(steward, two_teams):
    old = _add(two_teams["red"], "red", "Bob lives in Lisbon.")
    Memory.objects.filter(pk=old).update(visible_in=[Workspace.objects.get(slug="red").id])
    new = _add(two_teams["red"], "red", "Bob moved to Porto.")
    Memory.objects.filter(pk=new).update(visible_in=[Workspace.objects.get(slug="blue").id])

    as_red = _state_html(steward, old, **{"as": "red"})

    assert 'data-state="superseded"' in as_red and new not in as_red
    assert new in _state_html(steward, old)


def test_a_memory_page_names_its_workspaces_and_a_view_as_page_only_those_that_principal_reads(steward, two_teams):
    memory = _add(two_teams["red"], "red", "Bob's locker code is 4411.")
    red, blue = Workspace.objects.get(slug="red"), Workspace.objects.get(slug="blue")
    Memory.objects.filter(pk=memory).update(visible_in=[red.id, blue.id])

    def visible(**params) -> str:
        html = steward.get(f"/steward/memories/{memory}/", params).content.decode()
        return re.search(r"<dt>write domain</dt><dd>(.*?)</dd>", html, re.S).group(1)

    assert ">blue</a>" in visible() and ">red</a>" in visible() and f"{red.id}," not in visible()
    assert ">red</a>" in visible(**{"as": "red"}) and "blue" not in visible(**{"as": "red"})


def test_forgetting_and_restoring_show_no_content_change_in_the_history(steward, two_teams):
    memory = _add(two_teams["red"], "red", "Bob's locker code is 4411.")
    for action in ("forget", "restore"):
        assert steward.post(f"/steward/memories/{memory}/correct/", {"action": action}).status_code == 302

    html = steward.get(f"/steward/memories/{memory}/").content.decode()

    history = html[html.index('id="history-title"') :]
    rows = history[history.index("<tbody>") : history.index("</tbody>")]
    assert rows.count("<tr>") == 3, "written, forgotten, restored"
    assert "→" not in rows, "forgetting and restoring change no content"


def test_django_admin_names_the_memories(steward):
    html = steward.get("/admin/").content.decode()

    assert "Memories" in html and "Memorys" not in html

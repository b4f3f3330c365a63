"""Memories in the room: search as a chosen principal never shows more than that principal may
see; a memory's page shows its lifecycle, edges, history and the run that wrote it; corrections
follow the API's rules and are audited."""

from __future__ import annotations

import json
import re

import pytest

from memory.models import Memory
from rbac.models import Principal, Role
from stewardship.models import AuditEntry
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(client):
    client.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)
    return client


@pytest.fixture
def two_teams():
    """``red`` writes in red, ``blue`` in blue; each sees only its own workspace."""
    apis = {}
    for name in ("red", "blue"):
        principal, issued = make_agent_with_token(name)
        grant(principal, make_workspace(name), Role.WORKER)
        apis[name] = bearer_client(issued.raw)
    return apis


def _add(api, actor: str, message: str, user_id: str = "bob") -> str:
    body = {"actor_id": actor, "user_id": user_id, "message": message, "group_id": actor}
    answer = api.post("/api/v1/add_memory", body, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["memory_ids"][0]


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

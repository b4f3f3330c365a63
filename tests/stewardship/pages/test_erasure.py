"""Erasing an owner from the room: the counts first, the erasure only once the owner's id is typed,
the verification report, one audit line with counts and no text, audit lines quoting the erased
memories redacted; refused to anyone but a global admin."""

from __future__ import annotations

import pytest
from django.test import Client

from memory.models import IngestRun, Memory
from rbac.models import Principal, Role
from stewardship.models import AuditEntry
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db

URL = "/steward/memories/erase/"


@pytest.fixture
def written():
    """alice's memories in team and lab, bob's in team, through the API."""
    principal, issued = make_agent_with_token("writer")
    for slug in ("team", "lab"):
        grant(principal, make_workspace(slug), Role.WORKER)
    api = bearer_client(issued.raw)

    def add(message: str, user_id: str, group_id: str = "team") -> str:
        body = {"actor_id": "writer", "user_id": user_id, "message": message, "group_id": group_id}
        answer = api.post("/api/v1/add_memory", body, format="json")
        assert answer.status_code == 200, answer.content
        return answer.json()["memory_ids"][0]

    ids = {
        "osaka": add("I live in Osaka.", "alice"),
        "tea": add("I prefer jasmine tea.", "alice"),
        "pens": add("I collect vintage fountain pens.", "alice", "lab"),
        "lisbon": add("I live in Lisbon.", "bob"),
    }
    return ids


def test_the_memories_page_links_to_it(steward):
    assert f'href="{URL}"' in steward.get("/steward/memories/").content.decode()


def test_the_counts_come_first_and_change_nothing(steward, written):
    page = steward.get(URL, {"user_id": "alice", "workspace": "team"})

    html = page.content.decode()
    assert page.status_code == 200
    assert "Stored about alice in workspace team" in html
    assert "<td>memories</td><td><code>memory_memory</code></td><td>deleted</td><td>2</td>" in html
    assert "<td>ingest runs</td><td><code>memory_ingestrun</code></td><td>deleted</td><td>2</td>" in html
    assert "Type the owner's id, <code>alice</code>, to erase all of this" in html
    assert Memory.objects.filter(user_id="alice").count() == 3


def test_for_htmx_only_the_part_below_the_form(steward, written):
    html = steward.get(URL, {"user_id": "alice"}, **HTMX).content.decode()

    assert html.lstrip().startswith('<div id="erasure">') and "<h1>" not in html


def test_nothing_stored_says_so_and_offers_nothing_to_confirm(steward, written):
    html = steward.get(URL, {"user_id": "bob", "workspace": "lab"}).content.decode()

    assert "Nothing is stored about bob in workspace lab: nothing to erase." in html
    assert 'id="erasure-confirm"' not in html


def test_a_wrong_confirmation_is_refused_inline_and_erases_nothing(steward, written):
    answer = steward.post(URL, {"user_id": "alice", "workspace": "team", "confirm": "alic"}, **HTMX)

    assert answer.status_code == 400
    assert inline_error(answer) == {
        "code": "unconfirmed",
        "field": "confirm",
        "message": "Type the owner's id, alice, exactly as it is to erase.",
    }
    assert 'id="erasure-confirm"' in answer.content.decode(), "the confirmation stays, to type again"
    assert Memory.objects.filter(user_id="alice").count() == 3 and audit_lines("owner.erase") == []


def test_an_unknown_workspace_is_refused_inline(steward, written):
    answer = steward.get(URL, {"user_id": "alice", "workspace": "nope"})

    assert answer.status_code == 404
    assert inline_error(answer)["message"] == "No workspace with the slug nope."
    posted = steward.post(URL, {"user_id": "alice", "workspace": "nope", "confirm": "alice"})
    assert posted.status_code == 404 and Memory.objects.filter(user_id="alice").count() == 3


def test_bad_input_is_refused_inline_not_a_server_error(steward, written):
    for params in ({"user_id": "a" * 201}, {"user_id": "alice", "workspace": "not a slug!"}, {"user_id": "al\x00ice"}):
        answer = steward.get(URL, params)
        assert answer.status_code == 400, params
        assert inline_error(answer)["code"] is not None
    assert steward.post(URL, {"workspace": "team"}).status_code == 400


def test_confirmed_it_erases_in_the_workspace_reports_and_audits(steward, written, ada):
    answer = steward.post(URL, {"user_id": "alice", "workspace": "team", "confirm": "alice"}, **HTMX)

    html = answer.content.decode()
    assert answer.status_code == 200
    assert "Verification passed: nothing of theirs is left." in html
    assert "<td>memories</td><td><code>memory_memory</code></td><td>deleted</td><td>2</td><td>0</td>" in html
    assert list(Memory.objects.filter(user_id="alice").values_list("id", flat=True).order_by()) == [
        __import__("uuid").UUID(written["pens"])
    ]
    assert IngestRun.objects.filter(user_id="alice").count() == 1 and Memory.objects.filter(user_id="bob").count() == 1
    [line] = audit_lines("owner.erase")
    assert (line["actor"], line["target"]) == ("ada", "owner:alice in workspace:team")
    assert line["before"]["memories"] == 2 and line["after"]["passed"] is True and line["after"]["rows_left"] == 0
    assert "Osaka" not in str(line) and "jasmine" not in str(line)


def test_audit_lines_quoting_an_erased_memory_are_redacted(steward, written):
    corrected = steward.post(
        f"/steward/memories/{written['osaka']}/correct/",
        {"action": "correct", "content": "alice lives in Osaka near the castle.", "reason": "typo"},
    )
    assert corrected.status_code == 302
    [before] = audit_lines("memory.correct")
    assert before["after"]["content"] == "alice lives in Osaka near the castle."

    answer = steward.post(URL, {"user_id": "alice", "confirm": "alice"})

    assert "Verification passed" in answer.content.decode()
    [after] = audit_lines("memory.correct")
    assert (after["before"]["content"], after["after"]["content"]) == ("[erased]", "[erased]")
    assert after["target"] == before["target"] and after["actor"] == "ada"
    assert not AuditEntry.objects.filter(after__icontains="Osaka").exists()


def test_a_principal_who_is_not_a_global_admin_is_refused(written):
    client = Client()
    client.force_login(make_principal("mallory", kind=Principal.Kind.HUMAN).user)

    assert client.get(URL, {"user_id": "alice"}).status_code == 403
    assert client.post(URL, {"user_id": "alice", "confirm": "alice"}).status_code == 403
    assert Memory.objects.filter(user_id="alice").count() == 3


def test_a_post_without_the_csrf_token_is_refused(ada, written):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada.user)

    assert client.post(URL, {"user_id": "alice", "confirm": "alice"}).status_code == 403
    assert Memory.objects.filter(user_id="alice").count() == 3

"""The Python client: importable with the standard library alone, and against a real HTTP server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helixsite.client import Helixsite, HelixsiteError
from rbac.models import Role
from tests.factories import grant, make_agent_with_token, make_workspace

ROOT = Path(__file__).resolve().parents[3]

# Any import that is neither the standard library nor helixsite itself fails, as it would on a
# machine where only the client was copied.
STANDARD_LIBRARY_ONLY = """
import importlib.abc, sys

class OnlyTheStandardLibrary(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top != "helixsite" and top not in sys.stdlib_module_names:
            raise ModuleNotFoundError(f"{name} is not in the standard library", name=name)
        return None

sys.meta_path.insert(0, OnlyTheStandardLibrary())
from helixsite.client import Helixsite, HelixsiteError
print(Helixsite.__name__, HelixsiteError.__name__, "django" in sys.modules, "rest_framework" in sys.modules)
"""


def test_the_client_imports_with_the_standard_library_only():
    result = subprocess.run(
        [sys.executable, "-c", STANDARD_LIBRARY_ONLY], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Helixsite", "HelixsiteError", "False", "False"]


@pytest.fixture
def client(live_server, transactional_db):
    workspace = make_workspace("team")
    principal, issued = make_agent_with_token("codex")
    grant(principal, workspace, Role.WORKER)
    with Helixsite(live_server.url, token=issued.raw, actor_id="codex") as helix:
        yield helix


def test_add_then_search_over_http(client):
    added = client.add_memory(user_id="alice", message="Alice keeps the release checklist in docs/release.md.")
    found = client.search_memory(user_id="alice", query="where is the release checklist")

    assert added["memory_ids"]
    assert found["results"][0]["id"] == added["memory_ids"][0]
    assert "docs/release.md" in found["results"][0]["content"]


def test_a_conversation_in_one_call_over_http(client):
    added = client.add_conversation(
        user_id="alice",
        extract=False,
        messages=[
            {"role": "assistant", "content": "Where do you keep the release checklist?"},
            {"role": "user", "content": "In docs/release.md, next to the changelog."},
        ],
    )
    found = client.search_memory(user_id="alice", query="where is the release checklist kept")
    with pytest.raises(HelixsiteError) as refused:
        client.add_conversation(user_id="alice", messages=[{"content": "ok"}, {"role": "boss", "content": "hi"}])

    answer_id = added["results"][1]["memory_ids"][0]
    assert [len(r["memory_ids"]) for r in added["results"]] == [1, 1]
    assert answer_id in [r["id"] for r in found["results"][:2]]
    assert (refused.value.status, refused.value.field) == (400, "messages[1].role")


def test_a_refusal_raises_with_status_code_and_field(client):
    with pytest.raises(HelixsiteError) as refused:
        client.search_memory(user_id="alice", query="x", limit=500)

    assert (refused.value.status, refused.value.code, refused.value.field) == (400, "max_value", "limit")


def test_an_unreachable_server_is_an_os_error():
    with Helixsite("http://127.0.0.1:1", token="hxt_x_y", actor_id="codex", timeout=2) as helix, pytest.raises(OSError):
        helix.list_users()


def test_a_revoked_or_wrong_token_is_unauthenticated(live_server, transactional_db):
    helix = Helixsite(live_server.url, token="hxt_nope_nope", actor_id="codex")
    with pytest.raises(HelixsiteError) as refused:
        helix.enroll_client()

    assert (refused.value.status, refused.value.code) == (401, "unauthenticated")


def test_every_tool_of_the_catalogue_has_a_client_method():
    from helixsite.agents.catalogue import tool_classes

    missing = [tool.tool for tool in tool_classes() if not callable(getattr(Helixsite, tool.tool, None))]

    assert missing == []


def test_a_working_session_over_http(client):
    """Session shape: heartbeat → add → search → think … commit → search finds the conclusion → farewell."""
    client.agent_heartbeat(agent_id="codex:main", status="planning the staging migration")
    client.add_memory(user_id="team", message="Staging deploys run on Fridays.")
    client.add_memory(user_id="team", message="The staging database is db-7.")

    client.think_start(session_id="plan", initial_thought="When should db-7 be migrated?")
    recalled = client.think_recall(session_id="plan", query="staging deploy day", parent_idx=0, user_id="team")
    friday = next(t["idx"] for t in recalled["recalled"] if "Fridays" in t["content"])
    before_commit = client.search_memory(user_id="team", query="migrate db-7 on a Friday")
    client.think_conclude(
        session_id="plan", conclusion="Migrate db-7 on Friday with the staging deploy.", supporting_idx=[friday]
    )
    committed = client.think_commit(session_id="plan", user_id="team")
    after_commit = client.search_memory(user_id="team", query="when to migrate db-7")
    graph = client.get_memory_graph(user_id="team", memory_id=committed["memory_id"], depth=1)
    swarm = client.swarm_status(active_window_secs=60)
    farewell = client.agent_farewell(agent_id="codex:main")

    before = [r["content"] for r in before_commit["results"]]
    assert any("Fridays" in c for c in before), "search finds what is stored"
    assert not any("Migrate db-7" in c for c in before), "but nothing before the commit"
    assert after_commit["results"][0]["id"] == committed["memory_id"]
    assert {e["type"] for e in graph["edges"]} >= {"SUPPORTS"}
    assert swarm["active"] == 1 and swarm["families"][0]["instances"][0]["agent_id"] == "codex:main"
    assert farewell["already_ended"] is False


def test_a_contradiction_reaches_the_writer_and_a_retract_supersedes(client):
    client.add_memory(user_id="bob", message="Bob lives in Osaka.")
    denial = client.add_memory(user_id="bob", message="Bob does not live in Osaka.")
    later = client.add_memory(user_id="bob", message="Bob likes green tea.")
    review = next(n for n in later["pending_outcomes"] if n["kind"] == "contradiction_review")

    settled = client.resolve_contradiction(from_id=review["from_id"], to_id=review["to_id"], resolution="retract")
    old = client.get_memory(memory_id=review["to_id"])

    assert denial["contradicted"] == [review["to_id"]]
    assert settled["superseded"] == [review["to_id"]]
    assert old["memory"]["superseded"] is True
    assert [h["action"] for h in old["history"]] == ["SUPERSEDE"]


def test_documents_over_http(client):
    page = b"<h1>Release</h1><p>The release train leaves every second Tuesday.</p>"
    added = client.add_document(user_id="alice", title="Release", content=page, content_type="text/html")
    found = client.search_memory(user_id="alice", query="when does the release train leave", include_chunks=True)
    listed = client.list_documents(user_id="alice", status="complete")
    document = client.get_document(document_id=added["document"]["id"])
    forgotten = client.forget_document(document_id=added["document"]["id"], reason="obsolete")

    chunk = next(r for r in found["results"] if r["kind"] == "chunk")
    assert (added["outcome"], added["document"]["content_type"]) == ("created", "text/html")
    assert chunk["content"] == "# Release\n\nThe release train leaves every second Tuesday."
    assert chunk["citation"]["document_id"] == added["document"]["id"]
    assert [d["id"] for d in listed["documents"]] == [added["document"]["id"]]
    assert document["chunks"][0]["text"] == chunk["content"]
    assert forgotten["document_id"] == added["document"]["id"]

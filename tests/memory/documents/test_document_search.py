"""Chunks in recall over HTTP: search_memory(include_chunks) ranks a document's chunks with the
memories and cites them; build_context and answer_question cite them by number; nobody outside
the document's workspace ever sees them; a forgotten document leaves every read."""

from __future__ import annotations

import json

import pytest

from memory.documents.models import Document
from tests.conftest import rows_for_the_module
from tests.memory.documents.conftest import RUNBOOK, add_document, make_crew
from tests.openai_compatible_server import chat_answer

pytestmark = pytest.mark.django_db

ROLLBACK_QUESTION = "how do we roll back the payments canary when errors rise"


@pytest.fixture(scope="module")
def module_library(django_db_setup, django_db_blocker):
    """The crew, three of Ada's memories and her runbook, written once for the module."""
    yield from rows_for_the_module(django_db_blocker, _write_library)


@pytest.fixture
def crew(module_library, db):
    """The module's crew; what a test writes, replaces or forgets is rolled back after it."""
    return module_library[0]


@pytest.fixture
def library(module_library):
    """Ada's runbook, as get_document showed it once the worker had stored it."""
    return module_library[1]


def _write_library() -> tuple:
    crew = make_crew()
    for fact in (
        "Ada is the on-call engineer for the payments API this week.",
        "Ada prefers rollbacks over hotfixes during an incident.",
        "Ada's team lunch is on Thursdays.",
    ):
        stored = crew.writer.call("add_memory", user_id="ada", message=fact, group_id="crew", extract=False)
        assert stored.status_code == 200, stored.json()
    return crew, add_document(crew.writer, source_url="https://wiki.example.org/deploy")["document"]


def search(agent, query: str = ROLLBACK_QUESTION, **params) -> list[dict]:
    response = agent.call("search_memory", user_id="ada", query=query, **params)
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_include_chunks_finds_the_right_chunk_with_its_citation(crew, library):
    results = search(crew.writer, include_chunks=True)

    chunk = next(r for r in results if r["kind"] == "chunk")
    assert chunk["content"].startswith("## Rollback")
    assert chunk["citation"] == {
        "document_id": library["id"],
        "title": "Deploy runbook",
        "chunk_index": 1,
        "char_start": RUNBOOK.index("## Rollback"),
        "char_end": RUNBOOK.index("## Database") - 2,
        "source_url": "https://wiki.example.org/deploy",
        "heading": "Deploy runbook › Rollback",
        "page": None,
        "version": 1,
    }
    assert RUNBOOK[chunk["citation"]["char_start"] : chunk["citation"]["char_end"]] == chunk["content"]


def test_chunks_and_memories_share_one_ranked_list(crew, library):
    results = search(crew.writer, include_chunks=True, limit=6)

    assert {r["kind"] for r in results} == {"memory", "chunk"}
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    assert len(results) <= 6
    kinds = [r["kind"] for r in results]
    assert kinds.index("chunk") < len(kinds) - 1, "a memory ranks below the best chunk"
    best_memory = next(r for r in results if r["kind"] == "memory")
    assert best_memory["content"] == "Ada prefers rollbacks over hotfixes during an incident."


def test_without_include_chunks_only_memories_come_back(crew, library):
    results = search(crew.writer)

    assert results and {r["kind"] for r in results} == {"memory"}
    assert all("citation" not in r for r in results)


def test_a_viewer_of_the_workspace_finds_the_chunks_too(crew, library):
    assert any(r["kind"] == "chunk" for r in search(crew.viewer, include_chunks=True))


@pytest.mark.parametrize("scope", ["personal", "all"])
def test_an_outsider_and_another_workspace_see_nothing(crew, library, scope):
    for agent in (crew.outsider, crew.stranger):
        assert search(agent, include_chunks=True, scope=scope) == []
        assert agent.call("get_document", document_id=library["id"]).status_code == 404
        assert agent.call("list_documents", user_id="ada").json()["documents"] == []
        context = agent.call("build_context", user_id="ada", query=ROLLBACK_QUESTION, include_chunks=True).json()
        assert (context["context"], context["citations"]) == ("", [])


def test_a_personal_search_reads_only_the_owners_documents(crew, library):
    add_document(
        crew.writer, user_id="ben", title="Ben's notes", text="# Rollback\n\nBen rolls back the canary by hand."
    )

    results = search(crew.writer, include_chunks=True)

    assert {r["user_id"] for r in results} == {"ada"}


def test_a_new_version_is_recalled_instead_of_the_old(crew, library):
    add_document(
        crew.writer,
        source_url="https://wiki.example.org/deploy",
        text=RUNBOOK.replace("passes two percent", "passes one percent"),
    )

    chunks = [r for r in search(crew.writer, include_chunks=True) if r["kind"] == "chunk"]

    assert any("passes one percent" in c["content"] for c in chunks)
    assert not any("passes two percent" in c["content"] for c in chunks)
    assert {c["citation"]["version"] for c in chunks} == {2}


def test_a_forgotten_document_leaves_every_read(crew, library):
    forgotten = crew.writer.call("forget_document", document_id=library["id"], reason="moved to the wiki")

    assert forgotten.status_code == 200, forgotten.json()
    assert not any(r["kind"] == "chunk" for r in search(crew.writer, include_chunks=True))
    assert crew.writer.call("get_document", document_id=library["id"]).status_code == 404
    assert crew.writer.call("list_documents").json()["documents"] == []
    context = crew.writer.call("build_context", user_id="ada", query=ROLLBACK_QUESTION, include_chunks=True).json()
    assert context["citations"] == [] and "helm rollback" not in context["context"]
    stored = Document.objects.get(pk=library["id"])
    assert stored.deleted_at is not None and stored.history.get().reason == "moved to the wiki"


def test_who_may_forget_a_document(crew, library):
    viewer = crew.viewer.call("forget_document", document_id=library["id"])
    stranger = crew.stranger.call("forget_document", document_id=library["id"])
    moderator = crew.moderator.call("forget_document", document_id=library["id"])

    assert viewer.status_code == 403 and viewer.json()["error"]["code"] == "forbidden"
    assert stranger.status_code == 404 and stranger.json()["error"]["field"] == "document_id"
    assert moderator.status_code == 200, moderator.json()


def test_the_same_content_written_again_after_a_forget_is_a_new_document(crew, library):
    crew.writer.call("forget_document", document_id=library["id"])

    again = add_document(crew.writer, source_url="https://wiki.example.org/deploy")

    assert again["outcome"] == "created" and again["document"]["id"] != library["id"]


def test_list_documents_pages_and_narrows(crew, library):
    add_document(crew.writer, user_id="ben", title="Ben's notes", text="# Notes\n\nBen's notes.")

    first = crew.viewer.call("list_documents", limit=1).json()
    second = crew.viewer.call("list_documents", limit=1, cursor=first["next_cursor"]).json()
    ada = crew.viewer.call("list_documents", user_id="ada").json()
    in_crew = crew.viewer.call("list_documents", group_id="crew", status="complete").json()
    elsewhere = crew.viewer.call("list_documents", group_id="other")

    assert [d["title"] for d in first["documents"] + second["documents"]] == ["Ben's notes", "Deploy runbook"]
    assert second["next_cursor"] is None
    assert [d["id"] for d in ada["documents"]] == [library["id"]]
    assert in_crew["count"] == 2
    assert elsewhere.status_code == 404 and elsewhere.json()["error"]["field"] == "group_id"


def test_build_context_packs_the_chunk_with_a_numbered_citation(crew, library):
    packed = crew.writer.call(
        "build_context", user_id="ada", query=ROLLBACK_QUESTION, include_chunks=True, token_budget=2000
    ).json()

    rollback = next(c for c in packed["citations"] if c["chunk_index"] == 1)
    assert rollback["document_id"] == library["id"] and rollback["title"] == "Deploy runbook"
    assert f"[{rollback['n']}] Deploy runbook › Rollback: ## Rollback" in packed["context"]
    assert any(c["n"] == rollback["n"] and c["citation"]["chunk_index"] == 1 for c in packed["chunks"])
    assert packed["tokens"] <= 2000


def test_build_context_without_include_chunks_is_as_before(crew, library):
    packed = crew.writer.call("build_context", user_id="ada", query=ROLLBACK_QUESTION).json()

    assert "citations" not in packed and "chunks" not in packed
    assert "helm rollback" not in packed["context"]


def test_answer_question_answers_from_the_chunk_and_cites_it(crew, library):
    answered = crew.writer.call(
        "answer_question",
        user_id="ada",
        question="At what error rate of the canary do we run the rollback?",
        include_chunks=True,
        token_budget=2000,
    ).json()

    assert answered["found"] is True and answered["method"] == "extractive"
    assert "error rate of the canary passes two percent" in answered["answer"]
    cited = next(c for c in answered["citations"] if c.get("kind") == "chunk")
    assert cited["citation"]["document_id"] == library["id"]
    assert cited["citation"]["chunk_index"] == 1
    assert cited["content"].startswith("## Rollback")


def test_the_llm_cites_passages_by_number(crew, library, llm_server):
    reply = {
        "answer": "When the canary's error rate passes two percent.",
        "citations": ["[1]", "2", "9"],
        "found": True,
    }
    llm_server.queue("/v1/chat/completions", chat_answer(json.dumps(reply)))

    answered = crew.writer.call(
        "answer_question", user_id="ada", question=ROLLBACK_QUESTION, include_chunks=True, token_budget=2000
    ).json()

    (request,) = llm_server.requests_to("/v1/chat/completions")
    prompt, system = request["messages"][-1]["content"], request["messages"][0]["content"]
    assert (answered["method"], answered["found"]) == ("llm", True)
    assert [c["kind"] for c in answered["citations"]] == ["chunk", "chunk"]
    assert all(c["citation"]["document_id"] == library["id"] for c in answered["citations"])
    assert answered["dropped_citations"] == ["9"]
    assert "Deploy runbook › Rollback: ## Rollback" in prompt and "cite a passage by its number" in system

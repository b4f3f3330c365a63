"""Portable archives: memories and documents written through the real write paths, exported,
the database emptied of them, imported again; the same installation must come back."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from pathlib import Path

import numpy as np
import pytest
from django.test import TestCase

from helixsite.db import conflicts
from memory.api.read import GetMemoryApi
from memory.archive.export import Selection, archive_export
from memory.archive.files import DOCUMENT_KINDS, ArchiveError
from memory.archive.load import Loader, archive_import
from memory.categories.models import Category, Filing
from memory.documents.api import AddDocumentApi, ForgetDocumentApi, GetDocumentApi, ListDocumentsApi
from memory.documents.models import Chunk, Document, DocumentHistory, ExtractedFrom
from memory.ingest.atoms import content_key
from memory.models import Edge, Entity, InstanceOf, Memory, MemoryAccess, MemoryHistory, Mention
from memory.providers import get_embedder
from memory.search.conductor import memory_search
from rbac.models import MemoryProvenance, Role
from tests.conftest import add_as_writer, make_team, rows_for_the_module
from tests.factories import deadlock, grant, make_principal, make_workspace, tool_call
from tests.memory.documents.conftest import RUNBOOK

pytestmark = pytest.mark.django_db

QUERIES = ["where does bob live", "Priya in Lisbon", "what does bob drink", "Kafka migration"]
DOCUMENT_QUERIES = ["how do we roll back the payments canary", "where does ada live", "database migration window"]
PROFILE = """# About Ada

Ada lives in Lisbon. Ada prefers green tea over coffee.

## Work

Ada works at the harbour authority as a data engineer.
"""


def write_memories(team: dict) -> dict:
    """Bob's memories, one superseded (an edge and a history row), with entities, concepts and
    filings; one memory of Carol's; access counters from a search."""
    add = functools.partial(add_as_writer, team)
    add("I live in Paris.")
    add("I live in Berlin.", metadata={"src": "chat"}, ttl=86400 * 30)
    add("I met Priya at the Lisbon office on Monday.")
    add("I prefer green tea to coffee.")
    add("Carol works on the Kafka migration with Priya.", user_id="carol")
    memory_search(actor=team["writer"], query="where does bob live", user_id="bob")
    return team


def write_documents(written: dict) -> dict:
    """Beside ``write_memories``, Ada's documents in the team workspace: a runbook of three chunks
    replaced by a second version (the first one's chunks superseded, kept), a profile whose chunks
    gave memories (each linked to its chunk), a forgotten note; and a note of Carol's."""

    def add_document(title: str, text: str, *, user_id: str = "ada", extract: bool = False) -> dict:
        with TestCase.captureOnCommitCallbacks(execute=True):
            arguments = {"user_id": user_id, "group_id": "team", "title": title, "text": text, "extract": extract}
            return tool_call(AddDocumentApi, actor=written["writer"], **arguments)

    add_document("Deploy runbook", RUNBOOK)
    replaced = add_document("Deploy runbook", RUNBOOK.replace("five percent", "ten percent"))
    add_document("About Ada", PROFILE, extract=True)
    note = add_document("Groceries", "Buy oat milk and coffee beans.")
    tool_call(ForgetDocumentApi, actor=written["writer"], document_id=note["document"]["id"], reason="bought")
    add_document("Carol's reading list", "Designing Data-Intensive Applications.", user_id="carol")
    assert replaced["outcome"] == "replaced" and replaced["document"]["version"] == 2
    assert ExtractedFrom.objects.count() >= 3, "the profile gave memories linked to its chunks"
    return written


@pytest.fixture(scope="module")
def module_library(django_db_setup, django_db_blocker):
    """The team, its memories and documents, written once for the module (``rows_for_the_module``):
    through the real write paths they took seconds, in each of thirty tests."""
    yield from rows_for_the_module(django_db_blocker, lambda: write_documents(write_memories(make_team())))


@pytest.fixture
def library(module_library, db):
    """The team with ``write_memories`` and ``write_documents``; what a test changes (it empties
    the database, imports, tampers) is rolled back after it."""
    return module_library


@pytest.fixture
def add(library):
    """memory_add as the library's writer (tests/conftest.py's ``add``, on this module's team)."""
    return functools.partial(add_as_writer, library)


def stored() -> dict[str, list]:
    """Everything an import restores, by value (entity and category ids differ once loaded again)."""

    def rows(queryset, *fields) -> list:
        return sorted(tuple(json.dumps(v, default=str) for v in row) for row in queryset.values_list(*fields))

    return {
        "memories": rows(
            Memory.objects,
            *("id", "content", "context", "memory_type", "user_id", "author__username", "agent_id", "run_id"),
            *("rbac_scope", "visible_in", "content_key", "metadata", "facets", "context_tags", "importance"),
            *("certainty", "source", "created_at", "updated_at", "valid_from", "valid_to", "expires_at"),
            *("deleted_at", "immutable"),
        ),
        "vectors": sorted((str(pk), tuple(v)) for pk, v in Memory.objects.values_list("id", "embedding")),
        "provenance": rows(MemoryProvenance.objects, "memory_id", "federation__slug"),
        "edges": rows(
            Edge.objects,
            *("source_id", "target_id", "edge_type", "confidence", "reason", "created_by__username"),
            *("run_id", "created_at", "expired_at"),
        ),
        "history": rows(
            MemoryHistory.objects,
            *("memory_id", "action", "old_content", "new_content", "details", "actor__username"),
            *("reason", "run_id", "created_at"),
        ),
        "mentions": rows(
            Mention.objects,
            *("memory_id", "entity__rbac_scope", "entity__name", "entity__normalized_name"),
            *("entity__entity_type", "entity__created_at", "entity__embedding"),
        ),
        "concepts": rows(InstanceOf.objects, "memory_id", "concept__name", "confidence"),
        "filings": rows(Filing.objects, "memory_id", "category__rbac_scope", "category__path", "method", "created_at"),
        "access": rows(MemoryAccess.objects, "memory_id", "access_count", "last_accessed_at"),
        "documents": rows(
            Document.objects,
            *("id", "title", "source_url", "content_type", "metadata", "text", "sha256", "chars", "version"),
            *("page_starts", "user_id", "author__username", "agent_id", "rbac_scope", "workspace__slug"),
            *("visible_in", "status", "chunks_total", "chunks_done", "chunk_chars", "chunk_overlap", "extract"),
            *("error", "created_at", "updated_at", "deleted_at"),
        ),
        "document_history": rows(
            DocumentHistory.objects,
            *("document_id", "action", "version", "title", "sha256", "text", "actor__username", "reason"),
            "created_at",
        ),
        "chunks": rows(
            Chunk.objects,
            *("id", "document_id", "version", "position", "text", "heading", "char_start", "char_end", "page"),
            *("user_id", "visible_in", "created_at", "extracted_at", "superseded_at", "deleted_at"),
        ),
        "chunk_vectors": sorted((str(pk), tuple(v)) for pk, v in Chunk.objects.values_list("id", "embedding")),
        "extracted_from": rows(ExtractedFrom.objects, "memory_id", "chunk_id", "created"),
    }


def searches(actor, user_id: str = "bob") -> list[list[tuple[str, list | None]]]:
    return [
        [
            (r["id"], r.get("superseded_by"))
            for r in memory_search(actor=actor, query=q, user_id=user_id, reinforce=False)["results"]
        ]
        for q in QUERIES
    ]


def chunk_searches(actor, user_id: str = "ada") -> list[list[tuple]]:
    """search_memory(include_chunks): memories and chunks by id, with their citations, in rank
    order; results of equal score by id, as recall leaves a tie in the table's row order, which
    a load changes."""

    def ranked(query: str) -> list[dict]:
        found = memory_search(actor=actor, query=query, user_id=user_id, include_chunks=True, reinforce=False)
        return sorted(found["results"], key=lambda r: (-r["score"], r["id"]))

    return [[(r["kind"], r["id"], r.get("citation")) for r in ranked(q)] for q in DOCUMENT_QUERIES]


def documents_seen(actor) -> dict[str, list[dict]]:
    """list_documents, and get_document of each document listed, as an agent reads them."""
    listed = tool_call(ListDocumentsApi, actor=actor)["documents"]
    return {"list": listed, "get": [tool_call(GetDocumentApi, actor=actor, document_id=d["id"]) for d in listed]}


def forget_everything() -> None:
    """The database without memories, documents and what hangs on them; principals and
    workspaces stay."""
    Document.objects.all().delete()
    Memory.objects.all().delete()
    Entity.objects.all().delete()
    Category.objects.all().delete()


def export(tmp_path: Path, name: str = "archive", **selection) -> Path:
    out = tmp_path / name
    archive_export(out=out, selection=Selection(**selection))
    return out


def read_rows(archive: Path, kind: str) -> list[dict]:
    return [json.loads(line) for line in (archive / f"{kind}.jsonl").read_text().splitlines()]


def rewrite(archive: Path, kind: str, rows: list[dict], **manifest_changes) -> None:
    """Replace a file and list it in the manifest as export would have: an archive that is
    consistent, only different."""
    data = "".join(json.dumps(row) + "\n" for row in rows).encode()
    (archive / f"{kind}.jsonl").write_bytes(data)
    manifest = json.loads((archive / "manifest.json").read_text())
    manifest["files"][kind].update(rows=len(rows), sha256=hashlib.sha256(data).hexdigest())
    manifest.update(manifest_changes)
    (archive / "manifest.json").write_text(json.dumps(manifest))


def test_a_round_trip_brings_back_the_same_memories_documents_searches_and_links(library, tmp_path):
    writer, viewer = library["writer"], library["viewer"]
    before, found_before, chunks_found_before = stored(), searches(writer), chunk_searches(viewer)
    berlin = Memory.objects.get(content="bob lives in Berlin.")
    got_before = tool_call(GetMemoryApi, actor=writer, memory_id=str(berlin.id))
    documents_before = documents_seen(viewer)
    assert {kind for results in chunks_found_before for kind, _, _ in results} == {"memory", "chunk"}
    assert len(documents_before["list"]) == 3, "the forgotten note is not listed"
    archive = export(tmp_path, workspaces=("team",))

    forget_everything()
    assert chunk_searches(viewer) != chunks_found_before and documents_seen(viewer)["list"] == []
    report = archive_import(path=archive)

    assert stored() == before
    assert searches(writer) == found_before
    assert chunk_searches(viewer) == chunks_found_before
    assert documents_seen(viewer) == documents_before
    assert tool_call(GetMemoryApi, actor=writer, memory_id=str(berlin.id)) == got_before
    paris = Memory.objects.get(content="bob lives in Paris.")
    assert paris.valid_to is not None and Edge.objects.filter(source=berlin, target=paris, edge_type="SUPERSEDES")
    written = {kind: count.written for kind, count in report.counts.items()}
    assert written["memories"] == len(before["memories"]) and written["edges"] == 1
    assert (written["documents"], written["document_history"]) == (4, 2), "a replaced version and a forget"
    assert written["chunks"] == len(before["chunks"]) and written["extracted_from"] == len(before["extracted_from"])
    assert all(count.present == 0 and count.left_out == 0 for count in report.counts.values())


def test_the_cited_chunks_and_the_replaced_version_come_back(library, tmp_path):
    viewer = library["viewer"]
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()

    archive_import(path=archive)

    lisbon = next(
        r
        for r in memory_search(actor=viewer, query="where does ada live", user_id="ada", include_chunks=True)["results"]
        if r["kind"] == "memory" and "Lisbon" in r["content"]
    )
    about = Document.objects.get(title="About Ada")
    assert lisbon["citation"]["document_id"] == str(about.id) and lisbon["citation"]["chunk_index"] == 0
    runbook = tool_call(GetDocumentApi, actor=viewer, document_id=str(Document.objects.get(title="Deploy runbook").id))
    assert runbook["document"]["version"] == 2 and "ten percent" in runbook["chunks"][0]["text"]
    assert [(h["action"], h["version"]) for h in runbook["history"]] == [("REPLACE", 1)]
    old = Chunk.objects.filter(document__title="Deploy runbook", version=1)
    assert old.count() == 3 and all(c.superseded_at is not None for c in old)
    assert "five percent" in DocumentHistory.objects.get(action="REPLACE").text


def test_the_manifest_describes_the_files_and_the_selection(library, tmp_path):
    archive = export(tmp_path, workspaces=("team",))

    manifest = json.loads((archive / "manifest.json").read_text())
    assert manifest["format"] == "helixsite-memories" and manifest["format_version"] == 2
    assert manifest["embedding"] == {"provider": "local", "model": "all-MiniLM-L6-v2", "dimension": 384}
    assert manifest["selection"] == {"workspaces": ["team"], "owner": None, "all": False}
    assert manifest["workspaces"] == ["team"] and manifest["authors"] == ["writer"]
    for kind, entry in manifest["files"].items():
        data = (archive / entry["name"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["rows"] == data.count(b"\n") == len(read_rows(archive, kind))
    memory = next(r for r in read_rows(archive, "memories") if r["content"] == "bob lives in Berlin.")
    assert memory["write_domain"] == {"kind": "workspace", "workspaces": ["team"]}
    assert memory["visible_in"] == ["team"] and memory["author"] == "writer"
    assert memory["metadata"] == {"src": "chat"} and memory["expires_at"] is not None
    assert len(memory["embedding"]) == 384
    assert manifest["files"]["documents"]["rows"] == 4 and manifest["files"]["chunks"]["rows"] == Chunk.objects.count()
    runbook = next(r for r in read_rows(archive, "documents") if r["title"] == "Deploy runbook")
    assert runbook["write_domain"] == {"kind": "workspace", "workspaces": ["team"]}
    assert (runbook["workspace"], runbook["visible_in"], runbook["author"]) == ("team", ["team"], "writer")
    assert runbook["version"] == 2 and runbook["text"] == RUNBOOK.replace("five percent", "ten percent")
    assert all(len(c["embedding"]) == 384 for c in read_rows(archive, "chunks"))


def test_importing_again_skips_everything(library, tmp_path):
    archive = export(tmp_path, everything=True)
    forget_everything()
    first = archive_import(path=archive)
    after_first = stored()

    again = archive_import(path=archive)

    assert stored() == after_first
    assert all(count.written == 0 for count in again.counts.values())
    assert again.counts["memories"].present == first.counts["memories"].written == Memory.objects.count()
    assert again.counts["documents"].present == first.counts["documents"].written == 4
    assert again.counts["chunks"].present == first.counts["chunks"].written == Chunk.objects.count()
    assert again.rows == first.rows


@pytest.mark.parametrize("stage", ["_memories", "_mentions", "_filings", "_documents", "_chunks", "_extracted_from"])
def test_an_interrupted_import_resumes_to_the_same_end(library, tmp_path, monkeypatch, stage):
    before = stored()
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    original = getattr(Loader, stage)
    batches = []

    def stopped_after_the_first_batch(self, rows):
        if batches:
            raise RuntimeError("the process was stopped")
        batches.append(len(rows))
        return original(self, rows)

    monkeypatch.setattr(Loader, stage, stopped_after_the_first_batch)
    with pytest.raises(RuntimeError):
        archive_import(path=archive, batch_size=2)
    assert stored() != before

    monkeypatch.setattr(Loader, stage, original)
    resumed = archive_import(path=archive, batch_size=2)

    assert stored() == before
    assert sum(count.present for count in resumed.counts.values()) > 0
    assert all(count.left_out == 0 for count in resumed.counts.values())


@pytest.mark.parametrize("stage", ["_memories", "_entities", "_mentions", "_filings", "_chunks", "_extracted_from"])
def test_a_batch_that_gives_way_in_a_deadlock_is_written_again(library, tmp_path, monkeypatch, caplog, stage):
    """A live write naming the same entities in another order: PostgreSQL ends a batch's
    transaction in a deadlock, undoing it whole; it is written again, and the import ends as one
    undisturbed run would."""
    before = stored()
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    original, batches = getattr(Loader, stage), []

    def gives_way_once_in_the_second_batch(self, rows):
        batches.append(len(rows))
        if len(batches) == 2:
            raise deadlock()
        return original(self, rows)

    monkeypatch.setattr(Loader, stage, gives_way_once_in_the_second_batch)
    monkeypatch.setattr(conflicts, "PAUSE_SECONDS", 0)
    with caplog.at_level(logging.WARNING, logger="helixsite.db.conflicts"):
        loaded = archive_import(path=archive, batch_size=2)

    assert "gave way in a deadlock" in caplog.text and batches[2] == batches[1]
    assert stored() == before
    assert all(count.left_out == 0 for count in loaded.counts.values())


@pytest.mark.parametrize(
    "kind, word", [("memories", b"Paris"), ("documents", b"canary"), ("chunks", b"canary"), ("extracted_from", b"-")]
)
def test_a_tampered_file_is_refused_before_anything_is_written(library, tmp_path, kind, word):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    path = archive / f"{kind}.jsonl"
    data = bytearray(path.read_bytes())
    data[data.index(word)] = ord("B")
    path.write_bytes(bytes(data))

    with pytest.raises(ArchiveError, match=rf"{kind}.jsonl is corrupt or truncated.*Nothing was imported"):
        archive_import(path=archive)
    assert not Memory.objects.exists() and not Entity.objects.exists() and not Document.objects.exists()


@pytest.mark.parametrize("kind", ["history", "chunks"])
def test_a_truncated_file_is_refused(library, tmp_path, kind):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    (archive / f"{kind}.jsonl").write_bytes(b"")

    with pytest.raises(ArchiveError, match=rf"{kind}.jsonl is corrupt or truncated: it holds 0 rows"):
        archive_import(path=archive)
    assert not Memory.objects.exists() and not Document.objects.exists()


def test_a_chunk_of_another_dimension_is_refused_naming_its_line(library, tmp_path):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    chunks = read_rows(archive, "chunks")
    chunks[2]["embedding"] = chunks[2]["embedding"][:100]
    rewrite(archive, "chunks", chunks)

    with pytest.raises(
        ArchiveError, match=r"chunks.jsonl line 3: its vector has 100 values; this installation stores 384"
    ):
        archive_import(path=archive)
    assert not Chunk.objects.exists()


def test_a_line_longer_than_any_document_is_refused_before_it_is_read(library, tmp_path, settings):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    documents = read_rows(archive, "documents")
    documents[1]["text"] = "x" * 1_100_000
    rewrite(archive, "documents", documents)
    settings.HELIX_MAX_DOCUMENT_BYTES = 1024

    with pytest.raises(ArchiveError, match=r"documents.jsonl line 2 is longer than 1054720 bytes"):
        archive_import(path=archive)
    assert not Document.objects.exists()


def test_vectors_of_another_model_are_refused_unless_embedded_again(library, tmp_path):
    added_vectors = dict(Chunk.objects.values_list("id", "embedding"))
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    other = {"provider": "openai", "model": "text-embedding-3-large", "dimension": 768}
    memories = [{**row, "embedding": [0.5] * 768} for row in read_rows(archive, "memories")]
    entities = [{**row, "embedding": row["embedding"] and [0.5] * 768} for row in read_rows(archive, "entities")]
    chunks = [{**row, "embedding": [0.5] * 768} for row in read_rows(archive, "chunks")]
    rewrite(archive, "memories", memories, embedding=other)
    rewrite(archive, "entities", entities)
    rewrite(archive, "chunks", chunks)

    with pytest.raises(ArchiveError, match=r"openai:text-embedding-3-large \(768-d\).*--reembed") as refused:
        archive_import(path=archive)
    assert refused.value.code == "embedding_mismatch"
    assert not Memory.objects.exists() and not Document.objects.exists()

    archive_import(path=archive, reembed=True)

    for memory in Memory.objects.all():
        here = get_embedder().embed([memory.content], purpose="test")[0]
        assert np.allclose(memory.embedding, here, atol=1e-6)
    priya = Entity.objects.get(normalized_name="priya")
    assert np.allclose(priya.embedding, get_embedder().embed(["Priya"], purpose="test")[0], atol=1e-6)
    chunk_vectors = dict(Chunk.objects.values_list("id", "embedding"))
    assert chunk_vectors.keys() == added_vectors.keys()
    for chunk_id, vector in chunk_vectors.items():
        assert np.allclose(vector, added_vectors[chunk_id], atol=1e-5), "embedded as add_document embeds a chunk"


def test_an_owner_export_holds_only_that_owners_memories_and_documents(library, tmp_path):
    archive = export(tmp_path, owner="carol")

    memories = read_rows(archive, "memories")
    assert [m["content"] for m in memories] == ["Carol works on the Kafka migration with Priya."]
    carol = memories[0]["id"]
    assert read_rows(archive, "edges") == [] and read_rows(archive, "history") == []
    for kind in ("mentions", "concepts", "filings", "access"):
        assert {row["memory"] for row in read_rows(archive, kind)} <= {carol}
    assert {e["name"] for e in read_rows(archive, "entities")} == {"Carol", "Kafka", "Priya"}
    (document,) = read_rows(archive, "documents")
    assert (document["title"], document["user_id"]) == ("Carol's reading list", "carol")
    assert {c["document"] for c in read_rows(archive, "chunks")} == {document["id"]}
    assert read_rows(archive, "document_history") == [] and read_rows(archive, "extracted_from") == []


def test_a_workspace_export_holds_only_the_documents_visible_in_it(library, tmp_path):
    ops = make_workspace("ops")
    writer = library["writer"]
    grant(writer.principal, ops, Role.WORKER)
    elsewhere = tool_call(
        AddDocumentApi, actor=writer, user_id="ada", group_id="ops", title="Ops rota", text="Dana is on call."
    )["document"]

    team = export(tmp_path, "team", workspaces=("team",))
    both = export(tmp_path, "both", workspaces=("team", "ops"))

    team_documents = {d["id"] for d in read_rows(team, "documents")}
    assert len(team_documents) == 4 and elsewhere["id"] not in team_documents
    assert {c["document"] for c in read_rows(team, "chunks")} <= team_documents
    assert {d["id"] for d in read_rows(both, "documents")} == team_documents | {elsewhere["id"]}


def test_a_workspace_map_loads_into_another_workspace_with_its_write_domain(library, tmp_path):
    found_before, chunks_found_before = searches(library["writer"]), chunk_searches(library["viewer"])
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    elsewhere = make_workspace("elsewhere")
    reader = make_principal("reader")
    grant(reader, elsewhere, Role.VIEWER)

    archive_import(path=archive, workspace_map={"team": "elsewhere"})

    scope = f"rbac:group:{elsewhere.pk}"
    for memory in Memory.objects.all():
        assert memory.rbac_scope == scope and memory.visible_in == [elsewhere.pk]
        assert memory.content_key == content_key(scope=scope, memory_type=memory.memory_type, content=memory.content)
    assert set(Entity.objects.values_list("rbac_scope", flat=True)) == {scope}
    assert set(Category.objects.values_list("rbac_scope", flat=True)) == {scope}
    assert searches(reader.user) == found_before
    assert searches(library["viewer"]) == [[] for _ in QUERIES]
    for document in Document.objects.all():
        assert (document.rbac_scope, document.visible_in, document.workspace) == (scope, [elsewhere.pk], elsewhere)
    assert all(seen == [elsewhere.pk] for seen in Chunk.objects.values_list("visible_in", flat=True))
    assert chunk_searches(reader.user) == chunks_found_before
    assert chunk_searches(library["viewer"]) == [[] for _ in DOCUMENT_QUERIES]


def test_a_memory_read_from_a_chunk_and_equal_to_one_here_is_cited_through_the_one_here(library, tmp_path, add):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    add("Ada lives in Lisbon.", user_id="ada")
    here = Memory.objects.get()

    report = archive_import(path=archive)

    assert report.counts["memories"].left_out == 1 and report.counts["extracted_from"].left_out == 0
    chunk = ExtractedFrom.objects.get(memory=here).chunk
    assert (chunk.document.title, chunk.position) == ("About Ada", 0)
    found = memory_search(actor=library["viewer"], query="where does ada live", user_id="ada", include_chunks=True)
    lisbon = next(r for r in found["results"] if r["id"] == str(here.id))
    assert lisbon["citation"]["document_id"] == str(chunk.document_id) and lisbon["citation"]["chunk_index"] == 0


def test_a_document_equal_to_one_here_is_left_out_with_its_chunks(
    library, tmp_path, django_capture_on_commit_callbacks
):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    arguments = {"user_id": "ada", "group_id": "team", "title": "Deploy runbook", "text": RUNBOOK}
    with django_capture_on_commit_callbacks(execute=True):  # and the worker stores its chunks
        here = tool_call(AddDocumentApi, actor=library["writer"], **arguments)["document"]

    report = archive_import(path=archive)

    assert (report.counts["documents"].written, report.counts["documents"].left_out) == (3, 1)
    assert (report.counts["chunks"].left_out, report.counts["document_history"].left_out) == (6, 1)
    runbooks = tool_call(ListDocumentsApi, actor=library["viewer"], user_id="ada")["documents"]
    assert [d["id"] for d in runbooks if d["title"] == "Deploy runbook"] == [here["id"]]
    assert Chunk.objects.filter(document_id=here["id"]).count() == 3
    assert Document.objects.filter(title="About Ada").exists() and ExtractedFrom.objects.exists()


def test_an_archive_written_before_documents_still_loads(library, tmp_path):
    before = stored()
    archive = export(tmp_path, workspaces=("team",))
    manifest = json.loads((archive / "manifest.json").read_text())
    for kind in DOCUMENT_KINDS:
        del manifest["files"][kind]
        (archive / f"{kind}.jsonl").unlink()
    (archive / "manifest.json").write_text(json.dumps({**manifest, "format_version": 1}))
    forget_everything()

    report = archive_import(path=archive)

    assert stored()["memories"] == before["memories"] and stored()["edges"] == before["edges"]
    assert not Document.objects.exists() and report.counts["documents"].read == 0

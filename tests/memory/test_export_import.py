"""Portable archives: memories written through the real write path, exported, the database
emptied of them, imported again; the same installation must come back."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from memory.api.read import GetMemoryApi
from memory.archive.export import Selection, archive_export
from memory.archive.files import ArchiveError
from memory.archive.load import Loader, archive_import
from memory.categories.models import Category, Filing
from memory.ingest.atoms import content_key
from memory.models import Edge, Entity, InstanceOf, Memory, MemoryAccess, MemoryHistory, Mention
from memory.providers import get_embedder
from memory.selectors import memory_search
from rbac.actors import SYSTEM
from rbac.models import MemoryProvenance, Role
from rbac.services import federation_attach, federation_create, federation_detach
from tests.factories import grant, make_principal, make_workspace, tool_call

pytestmark = pytest.mark.django_db

QUERIES = ["where does bob live", "Priya in Lisbon", "what does bob drink", "Kafka migration"]


@pytest.fixture
def written(team, add):
    """Bob's memories, one superseded (an edge and a history row), with entities, concepts and
    filings; one memory of Carol's; access counters from a search."""
    add("I live in Paris.")
    add("I live in Berlin.", metadata={"src": "chat"}, ttl=86400 * 30)
    add("I met Priya at the Lisbon office on Monday.")
    add("I prefer green tea to coffee.")
    add("Carol works on the Kafka migration with Priya.", user_id="carol")
    memory_search(actor=team["writer"], query="where does bob live", user_id="bob")
    return team


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
    }


def searches(actor, user_id: str = "bob") -> list[list[tuple[str, list | None]]]:
    return [
        [
            (r["id"], r.get("superseded_by"))
            for r in memory_search(actor=actor, query=q, user_id=user_id, reinforce=False)["results"]
        ]
        for q in QUERIES
    ]


def forget_everything() -> None:
    """The database without memories and what hangs on them; principals and workspaces stay."""
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


def test_a_round_trip_brings_back_the_same_memories_searches_and_links(written, tmp_path):
    writer = written["writer"]
    before, found_before = stored(), searches(writer)
    berlin = Memory.objects.get(content="bob lives in Berlin.")
    got_before = tool_call(GetMemoryApi, actor=writer, memory_id=str(berlin.id))
    archive = export(tmp_path, workspaces=("team",))

    forget_everything()
    report = archive_import(path=archive)

    assert stored() == before
    assert searches(writer) == found_before
    assert tool_call(GetMemoryApi, actor=writer, memory_id=str(berlin.id)) == got_before
    paris = Memory.objects.get(content="bob lives in Paris.")
    assert paris.valid_to is not None and Edge.objects.filter(source=berlin, target=paris, edge_type="SUPERSEDES")
    assert report.counts["memories"].written == 5 and report.counts["edges"].written == 1
    assert all(count.present == 0 for count in report.counts.values())


def test_the_manifest_describes_the_files_and_the_selection(written, tmp_path):
    archive = export(tmp_path, workspaces=("team",))

    manifest = json.loads((archive / "manifest.json").read_text())
    assert manifest["format"] == "helixsite-memories" and manifest["format_version"] == 1
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


def test_importing_again_skips_everything(written, tmp_path):
    archive = export(tmp_path, everything=True)
    forget_everything()
    first = archive_import(path=archive)
    after_first = stored()

    again = archive_import(path=archive)

    assert stored() == after_first
    assert all(count.written == 0 for count in again.counts.values())
    assert again.counts["memories"].present == first.counts["memories"].written == 5
    assert again.rows == first.rows


@pytest.mark.parametrize("stage", ["_memories", "_mentions", "_filings"])
def test_an_interrupted_import_resumes_to_the_same_end(written, tmp_path, monkeypatch, stage):
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


def test_a_tampered_file_is_refused_before_anything_is_written(written, tmp_path):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    path = archive / "memories.jsonl"
    data = bytearray(path.read_bytes())
    data[data.index(b"Paris")] = ord("B")
    path.write_bytes(bytes(data))

    with pytest.raises(ArchiveError, match=r"memories.jsonl is corrupt or truncated.*Nothing was imported"):
        archive_import(path=archive)
    assert not Memory.objects.exists() and not Entity.objects.exists()


def test_a_truncated_file_is_refused(written, tmp_path):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    path = archive / "history.jsonl"
    path.write_bytes(b"")

    with pytest.raises(ArchiveError, match=r"history.jsonl is corrupt or truncated: it holds 0 rows"):
        archive_import(path=archive)
    assert not Memory.objects.exists()


def test_vectors_of_another_model_are_refused_unless_embedded_again(written, tmp_path):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    other = {"provider": "openai", "model": "text-embedding-3-large", "dimension": 768}
    memories = [{**row, "embedding": [0.5] * 768} for row in read_rows(archive, "memories")]
    entities = [{**row, "embedding": row["embedding"] and [0.5] * 768} for row in read_rows(archive, "entities")]
    rewrite(archive, "memories", memories, embedding=other)
    rewrite(archive, "entities", entities)

    with pytest.raises(ArchiveError, match=r"openai:text-embedding-3-large \(768-d\).*--reembed") as refused:
        archive_import(path=archive)
    assert refused.value.code == "embedding_mismatch" and not Memory.objects.exists()

    archive_import(path=archive, reembed=True)

    for memory in Memory.objects.all():
        here = get_embedder().embed([memory.content], purpose="test")[0]
        assert np.allclose(memory.embedding, here, atol=1e-6)
    priya = Entity.objects.get(normalized_name="priya")
    assert np.allclose(priya.embedding, get_embedder().embed(["Priya"], purpose="test")[0], atol=1e-6)


def test_an_owner_export_holds_only_that_owners_memories(written, tmp_path):
    archive = export(tmp_path, owner="carol")

    memories = read_rows(archive, "memories")
    assert [m["content"] for m in memories] == ["Carol works on the Kafka migration with Priya."]
    carol = memories[0]["id"]
    assert read_rows(archive, "edges") == [] and read_rows(archive, "history") == []
    for kind in ("mentions", "concepts", "filings", "access"):
        assert {row["memory"] for row in read_rows(archive, kind)} <= {carol}
    assert {e["name"] for e in read_rows(archive, "entities")} == {"Carol", "Kafka", "Priya"}


def test_a_workspace_map_loads_into_another_workspace_with_its_write_domain(written, tmp_path):
    found_before = searches(written["writer"])
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
    assert searches(written["viewer"]) == [[] for _ in QUERIES]


def test_a_memory_equal_to_one_here_is_merged_and_its_edges_follow(written, tmp_path, add):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    add("I live in Berlin.")
    here = Memory.objects.get()

    report = archive_import(path=archive)

    assert report.counts["memories"].written == 4 and report.counts["memories"].left_out == 1
    assert Memory.objects.filter(content="bob lives in Berlin.").count() == 1
    paris = Memory.objects.get(content="bob lives in Paris.")
    assert Edge.objects.filter(source=here, target=paris, edge_type="SUPERSEDES").exists()


def test_a_federated_memory_keeps_its_write_domain_provenance_and_visibility(team, add, tmp_path):
    ops = make_workspace("ops")
    federation = federation_create(actor=SYSTEM, name="Platform")
    federation_attach(actor=SYSTEM, federation=federation, workspace=team["workspace"])
    federation_attach(actor=SYSTEM, federation=federation, workspace=ops)
    add("The deploy key rotates every Friday.")
    federation_detach(actor=SYSTEM, federation=federation, workspace=ops)
    before = stored()
    archive = export(tmp_path, workspaces=("ops",))

    (row,) = read_rows(archive, "memories")
    assert row["write_domain"] == {"kind": "federation", "federation": "platform", "workspaces": ["team"]}
    assert row["visible_in"] == ["ops", "team"]

    forget_everything()
    archive_import(path=archive)

    assert stored() == before
    memory = Memory.objects.get()
    assert memory.rbac_scope == f"rbac:dedup:{federation.pk}"
    assert memory.visible_in == sorted([team["workspace"].pk, ops.pk])

"""manage.py export and manage.py import, as an operator runs them: a summary on stdout, progress
on stderr, and every refusal one clear line."""

from __future__ import annotations

import io
import json
import tarfile

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection

from memory.documents.models import Chunk, Document
from memory.documents.services import DocumentInput, document_add
from memory.models import Edge, Entity, Memory
from memory.selectors import memory_list
from rbac.models import Role, Workspace
from tests.factories import grant, make_principal, make_workspace
from tests.memory.documents.conftest import RUNBOOK

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def summary(out: str) -> dict[str, str]:
    """The import's line per kind: kind → "N written, M already here[, K left out]"."""
    lines = [line.split(None, 1) for line in out.splitlines() if line.startswith("  ")]
    return {kind: counts for kind, counts in lines}


@pytest.fixture
def exported(team, add, tmp_path):
    add("I live in Paris.")
    add("I live in Berlin.")
    add("I met Priya at the Lisbon office.", user_id="carol")
    archive = tmp_path / "team.tar.gz"
    out, err = run("export", str(archive), "--workspace", "team")
    assert "Exported" in out and "3 memories" in out and "1 edges" in out
    assert "memories" in err, "progress is shown on stderr"
    Memory.objects.all().delete()
    Entity.objects.all().delete()
    return archive


def test_a_gzipped_archive_holds_one_directory_with_the_manifest_and_the_files(exported):
    with tarfile.open(exported) as tar:
        names = sorted(tar.getnames())

    assert names[0] == "team" and "team/manifest.json" in names and "team/memories.jsonl" in names
    assert "team/documents.jsonl" in names and "team/chunks.jsonl" in names
    assert len(names) == 14, "the directory, the manifest and a file for each of the 12 kinds"


def test_import_loads_the_archive_and_prints_a_summary(exported, team):
    out, err = run("import", str(exported))

    assert "Imported" in out and "rows/s" in out
    assert summary(out)["memories"] == "3 written, 0 already here" and summary(out)["edges"].startswith("1 written")
    assert "row" in err
    assert sorted(m.content for m in memory_list(actor=team["writer"], include_superseded=True)) == [
        "bob lives in Berlin.",
        "bob lives in Paris.",
        "carol met Priya at the Lisbon office.",
    ]

    again, _ = run("import", str(exported))
    assert "0 written, " in again and summary(again)["memories"] == "0 written, 3 already here"


def test_a_workspace_missing_here_is_named(exported):
    Workspace.objects.filter(slug="team").update(slug="team-renamed")

    with pytest.raises(
        CommandError, match=r"in workspace team, which this installation does not have.*--workspace-map"
    ):
        run("import", str(exported))
    assert not Memory.objects.exists()

    out, _ = run("import", str(exported), "--workspace-map", "team=team-renamed")
    assert summary(out)["memories"] == "3 written, 0 already here"


def test_a_workspace_map_must_name_workspaces_that_exist(exported):
    with pytest.raises(CommandError, match=r"--workspace-map team=nowhere: no such workspace here"):
        run("import", str(exported), "--workspace-map", "team=nowhere")
    with pytest.raises(CommandError, match=r"--workspace-map names other, which the archive does not hold"):
        run("import", str(exported), "--workspace-map", "other=team")
    with pytest.raises(CommandError, match=r"write it OLD=NEW"):
        run("import", str(exported), "--workspace-map", "team")


def test_authors_unknown_here_need_an_actor(exported, team):
    User.objects.filter(username="writer").update(username="writer-renamed")

    with pytest.raises(CommandError, match=r"authors writer have no principal here.*--actor NAME"):
        run("import", str(exported))
    assert not Memory.objects.exists()

    run("import", str(exported), "--actor", "viewer")
    assert set(Memory.objects.values_list("author__username", flat=True)) == {"viewer"}


def test_a_corrupt_archive_is_refused_with_nothing_written(exported, tmp_path):
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(exported.read_bytes()[:-200])

    with pytest.raises(CommandError, match=r"broken.tar.gz is not a readable .tar.gz archive"):
        run("import", str(broken))
    with pytest.raises(CommandError, match=r"is neither an export directory nor a .tar.gz file"):
        run("import", str(tmp_path / "missing"))
    assert not Memory.objects.exists()


def test_a_manifest_of_another_format_version_is_refused(team, tmp_path):
    archive = tmp_path / "archive"
    run("export", str(archive), "--all")
    manifest = json.loads((archive / "manifest.json").read_text())
    (archive / "manifest.json").write_text(json.dumps({**manifest, "format_version": 9}))

    with pytest.raises(CommandError, match=r"format version 9; this installation reads versions 1, 2"):
        run("import", str(archive))


def test_export_refuses_a_selection_that_is_missing_contradictory_or_unknown(team, tmp_path):
    with pytest.raises(CommandError, match=r"Choose what to export: --workspace SLUG, --owner USER_ID or --all"):
        run("export", str(tmp_path / "a"))
    with pytest.raises(CommandError, match=r"--all exports everything"):
        run("export", str(tmp_path / "a"), "--all", "--owner", "bob")
    with pytest.raises(CommandError, match=r"No workspace nowhere in this installation"):
        run("export", str(tmp_path / "a"), "--workspace", "team", "nowhere")
    (tmp_path / "a").mkdir()
    with pytest.raises(CommandError, match=r"already exists; choose a new name"):
        run("export", str(tmp_path / "a"), "--all")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"], "a refused export leaves nothing behind"


@pytest.mark.django_db(transaction=True)
def test_an_export_outside_a_transaction_reads_one_snapshot_and_import_rebuilds_the_index(tmp_path):
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    rows = [{"user_id": "dana", "content": f"Host node-{n} runs service {n % 7}."} for n in range(40)]
    (tmp_path / "rows.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    run("import_jsonl", str(tmp_path / "rows.jsonl"), "--actor", "writer", "--group", "team")
    document_add(actor=writer.user, given=DocumentInput(user_id="dana", title="Runbook", text=RUNBOOK), group_id="team")
    run("export", str(tmp_path / "out"), "--owner", "dana")
    Memory.objects.all().delete()
    Document.objects.all().delete()

    out, _ = run("import", str(tmp_path / "out"), "--rebuild-index", "always", "--batch-size", "7")

    assert summary(out)["memories"] == "40 written, 0 already here" and summary(out)["chunks"].startswith("3 written")
    assert "Vector index rebuilt: memories, chunks." in out
    with connection.cursor() as cursor:
        indexes = ["chunk_embedding_hnsw", "memory_embedding_hnsw"]
        cursor.execute("SELECT indexname FROM pg_indexes WHERE indexname = ANY(%s) ORDER BY 1", [indexes])
        assert [name for (name,) in cursor.fetchall()] == indexes
    assert Memory.objects.count() == 40 and not Edge.objects.exists() and Chunk.objects.count() == 3


def test_documents_travel_with_their_chunks_and_an_equal_one_here_is_left_out(team, tmp_path):
    given = DocumentInput(user_id="bob", title="Deploy runbook", text=RUNBOOK)
    document_add(actor=team["writer"], given=given, group_id="team")
    archive = tmp_path / "team"
    out, _ = run("export", str(archive), "--workspace", "team")
    assert "1 documents" in out and "3 chunks" in out
    Document.objects.all().delete()

    out, _ = run("import", str(archive))
    assert summary(out)["documents"] == "1 written, 0 already here"
    assert summary(out)["chunks"] == "3 written, 0 already here"

    Document.objects.all().delete()
    here = document_add(actor=team["writer"], given=given, group_id="team").document
    out, _ = run("import", str(archive))
    assert summary(out)["documents"] == "0 written, 0 already here, 1 left out"
    assert summary(out)["chunks"] == "0 written, 0 already here, 3 left out"
    assert "1 documents had the content, or the title and source, of one of the owner's documents already here" in out
    assert list(Document.objects.values_list("id", flat=True)) == [here.id]

"""Portable archives of memories written without the documents of test_export_import.py's
library (edge cases of time, merging into what is here, federation, a file not yet read):
exported, the database emptied of them, imported again."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import pytest

from memory.archive.files import ArchiveError
from memory.archive.load import archive_import
from memory.documents.api import AddDocumentApi
from memory.documents.models import Document
from memory.documents.tasks import document_resume
from memory.models import Edge, Memory
from rbac.actors import SYSTEM
from rbac.services import federation_attach, federation_create, federation_detach
from tests.factories import make_workspace, tool_call
from tests.memory.test_export_import import export, forget_everything, read_rows, rewrite, stored, write_memories

pytestmark = pytest.mark.django_db


@pytest.fixture
def written(team):
    """The team with test_export_import.py's ``write_memories``, and no documents."""
    return write_memories(team)


def test_event_times_at_both_ends_of_the_range_come_back(written, tmp_path):
    first, last = datetime.min.replace(tzinfo=UTC), datetime.max.replace(tzinfo=UTC)
    paris, berlin = (Memory.objects.get(content=f"bob lives in {city}.") for city in ("Paris", "Berlin"))
    Memory.objects.filter(pk=paris.pk).update(valid_from=first)
    Memory.objects.filter(pk=berlin.pk).update(valid_from=last, expires_at=last)
    before = stored()
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()

    archive_import(path=archive)

    assert stored() == before
    assert Memory.objects.get(pk=paris.pk).valid_from == first
    assert Memory.objects.values_list("valid_from", "expires_at").get(pk=berlin.pk) == (last, last)


def test_a_moment_past_year_9999_once_in_utc_is_refused_naming_its_line(written, tmp_path):
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()
    memories = read_rows(archive, "memories")
    memories[1]["created_at"] = "9999-12-31T23:59:59-05:00"
    rewrite(archive, "memories", memories)

    with pytest.raises(ArchiveError, match=r"memories.jsonl line 2: 9999-12-31T23:59:59-05:00 is before year 1 or"):
        archive_import(path=archive)
    assert not Memory.objects.exists()


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


def test_a_file_not_yet_read_travels_with_its_bytes_and_is_read_where_it_lands(written, tmp_path):
    html = b"<h1>Harbour</h1><p>The fuel pump keys hang in the blue cabinet.</p>"
    arguments = {"user_id": "ada", "group_id": "team", "title": "Harbour", "content_type": "text/html"}
    arguments["content_base64"] = base64.b64encode(html).decode()
    accepted = tool_call(AddDocumentApi, actor=written["writer"], **arguments)["document"]  # no worker ran
    archive = export(tmp_path, workspaces=("team",))
    forget_everything()

    archive_import(path=archive)
    landed = Document.objects.get(pk=accepted["id"])
    assert (landed.status, bytes(landed.source_file)) == ("pending", html)
    document_resume(str(landed.pk))

    landed.refresh_from_db()
    assert (landed.status, landed.source_file) == ("complete", None)
    assert "The fuel pump keys hang in the blue cabinet." in landed.text

"""owner_erase: everything stored about one owner goes, in one workspace or everywhere, in one
transaction; another owner's rows and the owner's other workspaces stay; the report's search of
the whole database finds nothing of what they said."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from helixsite.errors import ApplicationError
from memory.categories.models import AtlasSnapshot
from memory.categories.services import atlas_snapshot_take
from memory.charter.models import ContradictionReview
from memory.documents.models import Document, DocumentHistory
from memory.documents.services import DocumentInput, document_add
from memory.erasure import services as erase
from memory.erasure.services import owner_erase, owner_erasure_preview
from memory.fastthink.models import ThinkSession, Thought
from memory.fastthink.services import think_recall, think_start
from memory.models import Entity, Inference, IngestRun, IngestStage, Memory, MemoryHistory, Profile
from memory.outbox.models import Notice, PendingInput
from memory.services.add import memory_add
from rbac.models import Federation, Role
from rbac.policy import SYSTEM
from rbac.services import federation_attach, federation_create
from tests.factories import grant, make_workspace

pytestmark = pytest.mark.django_db

# What alice says in the team workspace, and in the lab; what bob says in the team workspace.
ALICE_TEAM = [
    "I live in Osaka.",
    "I don't live in Osaka.",
    "I prefer jasmine tea.",
    "I now prefer barley coffee.",
    "I work on the Quokka-Nine satellite near the harbour. I have two cats named Miso and Tofu. "
    "I fly to Reykjavik every winter for the aurora.",
]
ALICE_LAB = "I collect vintage fountain pens."
BOB_TEAM = ["I live in Lisbon.", "I restore old Vespa scooters."]
# Words only alice's team statements hold (run messages, stages, history, the outbox, FastThink…).
ALICE_TEAM_WORDS = ["Osaka", "jasmine", "barley coffee", "Quokka-Nine", "Reykjavik", "Miso and Tofu", "Albatross"]

# Where an owner's words are kept: each table with its text and JSON columns.
COLUMNS = {
    "memory_memory": ["content", "context", "metadata::text", "facets::text"],
    "memory_memoryhistory": ["old_content", "new_content", "details::text"],
    "memory_ingestrun": ["message", "result::text", "error"],
    "memory_ingeststage": ["output::text", "error"],
    "memory_entity": ["name", "normalized_name"],
    "outbox_pendinginput": ["payload::text", "result::text"],
    "outbox_notice": ["payload::text"],
    "fastthink_thought": ["content"],
    "charter_contradictionreview": ["reason", "conflict_kind"],
    "categories_atlassnapshot": ["memories::text", "categories::text"],
    "memory_profile": ["static::text", "dynamic::text"],
}


def tables_holding(word: str) -> list[str]:
    found = []
    with connection.cursor() as cursor:
        for table, columns in COLUMNS.items():
            where = " OR ".join(f"position(%(w)s IN {c}) > 0" for c in columns)
            cursor.execute(f"SELECT count(*) FROM {table} WHERE {where}", {"w": word})
            if cursor.fetchone()[0]:
                found.append(table)
    return found


@pytest.fixture
def lab(team):
    workspace = make_workspace("lab")
    grant(team["writer"].principal, workspace, Role.WORKER)
    return workspace


@pytest.fixture
def world(team, lab, add, django_capture_on_commit_callbacks):
    """alice and bob in the team workspace, alice in the lab too, all through the write path: runs,
    stages, history, a contradiction under review, a buffered write still queued, a think session
    about alice, another recalling her memory, an atlas snapshot, a ledger row of her run."""
    for message in ALICE_TEAM:
        add(message, user_id="alice")
    add(ALICE_LAB, user_id="alice", group_id="lab")
    for message in BOB_TEAM:
        add(message, user_id="bob")
    with django_capture_on_commit_callbacks(execute=False):  # the worker never runs it
        memory_add(
            actor=team["writer"],
            user_id="alice",
            message="I am saving for a sailboat named Albatross.",
            group_id="team",
            buffered=True,
        )
    writer = team["writer"]
    think_start(actor=writer, session_id="about-alice", initial_thought="Where does she live?")
    think_recall(actor=writer, session_id="about-alice", query="Osaka", parent_idx=0, user_id="alice")
    think_start(actor=writer, session_id="survey", initial_thought="Who lives where?")
    think_recall(actor=writer, session_id="survey", query="live Osaka Lisbon", parent_idx=0)
    atlas_snapshot_take()
    run = IngestRun.objects.filter(user_id="alice").first()
    Inference.objects.create(
        kind="chat", provider="openai", model="m", purpose="extract", latency_ms=5, ok=True, run_id=run.id
    )
    return team


def bob_state() -> dict:
    return {
        "memories": sorted(Memory.objects.filter(user_id="bob").values_list("content", flat=True)),
        "runs": IngestRun.objects.filter(user_id="bob").count(),
        "stages": IngestStage.objects.filter(run__user_id="bob").count(),
    }


def test_the_world_holds_what_alice_said_everywhere_before(world):
    assert ContradictionReview.objects.count() == 1
    assert Notice.objects.filter(kind="contradiction_review").exists()
    assert PendingInput.objects.filter(user_id="alice").count() == 1
    assert MemoryHistory.objects.filter(memory__user_id="alice").exists()
    assert Thought.objects.filter(session__session_id="survey", memory__user_id="alice").exists()
    assert sorted(Profile.objects.filter(user_id="alice").values_list("workspace__slug", flat=True)) == ["lab", "team"]
    for word in ALICE_TEAM_WORDS:
        assert tables_holding(word), word


def test_erasing_everywhere_leaves_nothing_of_alice_and_all_of_bob(world):
    bob_before = bob_state()

    report = owner_erase(user_id="alice")

    assert report.passed, report.as_dict()
    assert report.check.found == [] and report.check.searched > 10
    assert {c.name: c.after for c in report.tables if c.after} == {}
    counts = {c.name: c.before for c in report.tables}
    assert counts["memories"] >= len(ALICE_TEAM) + 1 and counts["ingest stages"] >= 5 * len(ALICE_TEAM)
    assert counts["ingest runs"] == len(ALICE_TEAM) + 1 and counts["buffered writes"] == 1
    assert counts["contradiction reviews"] == 1 and counts["think sessions"] == 1
    assert counts["thoughts recalling an erased memory"] >= 1 and counts["memory history"] >= 1
    assert counts["inference ledger rows of their runs"] == 1
    for word in [*ALICE_TEAM_WORDS, "fountain pens"]:
        assert tables_holding(word) == [], word
    assert not Memory.objects.filter(user_id="alice").exists()
    assert not IngestRun.objects.filter(user_id="alice").exists()
    assert not PendingInput.objects.filter(user_id="alice").exists()
    assert not Notice.objects.filter(kind="contradiction_review").exists()
    assert not ThinkSession.objects.filter(session_id="about-alice").exists()
    assert set(
        Thought.objects.filter(session__session_id="survey", memory__isnull=True).values_list("content", flat=True)
    ) >= {"[erased]"}
    assert Inference.objects.get().run_id is None, "the ledger row stays, detached"
    assert not Profile.objects.filter(user_id="alice").exists() and Profile.objects.filter(user_id="bob").exists()
    assert bob_state() == bob_before
    assert tables_holding("Lisbon") != [] and tables_holding("Vespa") != []


def rows_written_by_table() -> dict[str, int]:
    """Rows this transaction has updated or deleted so far, by table: the old versions it left."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables")
        return dict(cursor.fetchall())


def test_every_table_the_erasure_leaves_old_rows_in_is_one_it_names_for_compaction(world):
    before = rows_written_by_table()

    owner_erase(user_id="alice")

    after = rows_written_by_table()
    written = {table for table, rows in after.items() if rows > before.get(table, 0)}
    assert {"memory_memory", "memory_ingestrun", "memory_corpusterm", "fastthink_thought"} <= written
    assert sorted(written - set(erase.erasure_table_names())) == []


def test_the_atlas_is_taken_again_without_her(world):
    before = AtlasSnapshot.objects.get()
    assert any(m["owner"] == "alice" for m in before.memories)

    report = owner_erase(user_id="alice")

    snapshot = AtlasSnapshot.objects.get()
    assert snapshot.pk != before.pk
    assert [m["owner"] for m in snapshot.memories if m["owner"] == "alice"] == []
    assert {m["owner"] for m in snapshot.memories} == {"bob"}
    assert "the atlas snapshot, taken again" in report.refreshed


def test_entities_only_she_mentions_go_and_shared_ones_stay(world, add):
    add("The Quokka-Nine satellite launches in May.", user_id="bob")
    mine = Entity.objects.filter(normalized_name__contains="reykjavik").count()
    assert mine == 1 and Entity.objects.filter(normalized_name__contains="quokka").exists()

    owner_erase(user_id="alice")

    assert not Entity.objects.filter(normalized_name__contains="reykjavik").exists()
    assert Entity.objects.filter(normalized_name__contains="quokka").exists(), "bob mentions it too"


def test_erasing_in_one_workspace_keeps_her_memories_in_the_others(world, lab):
    lab_memories = list(
        Memory.objects.filter(user_id="alice", visible_in__contains=[lab.id]).values_list("id", flat=True)
    )
    assert lab_memories

    report = owner_erase(user_id="alice", workspace="team")

    assert report.passed, report.as_dict()
    assert report.workspace == "team"
    remaining = list(Memory.objects.filter(user_id="alice").values_list("id", flat=True))
    assert remaining == lab_memories
    assert list(IngestRun.objects.filter(user_id="alice").values_list("workspace__slug", flat=True)) == ["lab"]
    assert tables_holding("fountain pens") != [], "the lab's memory and run keep what she said there"
    assert list(Profile.objects.filter(user_id="alice").values_list("workspace__slug", flat=True)) == ["lab"]
    for word in ALICE_TEAM_WORDS:
        assert tables_holding(word) == [], word


def test_a_text_she_said_in_both_workspaces_stays_with_the_workspace_kept(world, add, lab):
    add("I live in Osaka.", user_id="alice", group_id="lab")

    report = owner_erase(user_id="alice", workspace="team")

    assert report.passed and report.check.kept >= 1
    assert Memory.objects.filter(user_id="alice", content__contains="Osaka", visible_in__contains=[lab.id]).exists()


def test_a_failure_half_way_leaves_everything_as_it_was(world, monkeypatch):
    def counts() -> tuple:
        return (
            Memory.objects.filter(user_id="alice").count(),
            MemoryHistory.objects.filter(memory__user_id="alice").count(),
            IngestRun.objects.filter(user_id="alice").count(),
            IngestStage.objects.filter(run__user_id="alice").count(),
            PendingInput.objects.filter(user_id="alice").count(),
            ThinkSession.objects.count(),
            Notice.objects.count(),
            Thought.objects.filter(content="[erased]").count(),
        )

    before = counts()

    def broken(plan) -> None:
        raise RuntimeError("disk full")

    # The ledger is detached after the memories and the runs are gone: a failure there undoes them.
    monkeypatch.setattr(erase, "_ledger_detach", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        owner_erase(user_id="alice")

    assert counts() == before
    for word in ALICE_TEAM_WORDS:
        assert tables_holding(word), word


def test_the_check_finds_words_the_erasure_did_not_know_about(world):
    stray = Notice.objects.create(
        kind="ops_alert",
        subject="manual",
        recipient=world["writer"],
        payload={"message": 'She said: "I live in Osaka." and more'},
    )

    report = owner_erase(user_id="alice")

    assert not report.passed
    assert [(f.table, f.rows, f.row_ids) for f in report.check.found] == [("outbox_notice", 1, [str(stray.id)])]


def test_the_preview_counts_and_changes_nothing(world, lab):
    preview = owner_erasure_preview(user_id=" alice ", workspace="lab")

    counts = {c.name: c.before for c in preview.tables}
    assert (preview.user_id, preview.workspace, preview.empty) == ("alice", "lab", False)
    assert counts["memories"] == 1 and counts["ingest runs"] == 1 and counts["buffered writes"] == 0
    assert all(c.after is None for c in preview.tables)
    assert Memory.objects.filter(user_id="alice").count() > 1
    assert owner_erasure_preview(user_id="nobody").empty


@pytest.mark.parametrize(
    ("user_id", "workspace", "expected"),
    [
        ("   ", None, (400, "invalid", "user_id")),
        ("a" * 201, None, (400, "invalid", "user_id")),
        ("ali\x00ce", None, (400, "invalid", "user_id")),
        ("alice", "nope", (404, "not_found", "workspace")),
    ],
)
def test_bad_input_is_refused_clearly(world, user_id, workspace, expected):
    with pytest.raises(ApplicationError) as refused:
        owner_erase(user_id=user_id, workspace=workspace)

    assert (refused.value.status, refused.value.code, refused.value.field) == expected
    assert Memory.objects.filter(user_id="alice").exists()


def test_a_buffered_write_being_stored_refuses_the_erasure(world):
    PendingInput.objects.filter(user_id="alice").update(status="running", started_at=timezone.now())

    with pytest.raises(ApplicationError) as refused:
        owner_erase(user_id="alice")

    assert (refused.value.status, refused.value.code) == (409, "write_in_progress")
    assert Memory.objects.filter(user_id="alice").exists()


def test_in_a_federation_a_memory_visible_in_both_workspaces_goes_from_both(team, lab, add):
    federation_attach(
        actor=SYSTEM, federation=federation_create(actor=SYSTEM, name="Shared"), workspace=team["workspace"]
    )
    federation_attach(actor=SYSTEM, federation=Federation.objects.get(), workspace=lab)
    shared = add("I keep bees on the roof.", user_id="alice")["memory_ids"][0]
    assert sorted(Memory.objects.get(pk=shared).visible_in) == sorted([team["workspace"].id, lab.id])

    preview = owner_erasure_preview(user_id="alice", workspace="lab")
    report = owner_erase(user_id="alice", workspace="lab")

    assert preview.shared == 1
    assert report.passed and not Memory.objects.filter(pk=shared).exists()
    assert not IngestRun.objects.filter(user_id="alice").exists(), "the run that wrote it, asked from team, goes too"
    assert not Profile.objects.filter(user_id="alice").exists(), "team's profile quoted it too"


def test_her_documents_their_versions_and_chunks_go_and_bob_s_stay(team, lab):
    writer = team["writer"]
    first = "# Kestrel notes\n\nThe kestrel nest sits above the old granary.\n\n## Winter\n\nShe feeds them grubs."
    document_add(actor=writer, given=DocumentInput(user_id="alice", title="Birds", text=first), group_id="team")
    second = first + "\n\n## Spring\n\nThe chicks fledge in the third week of May near Pellworm."
    document_add(actor=writer, given=DocumentInput(user_id="alice", title="Birds", text=second), group_id="team")
    document_add(
        actor=writer, given=DocumentInput(user_id="bob", title="Bikes", text="Vespa restoration log."), group_id="team"
    )
    assert DocumentHistory.objects.filter(document__user_id="alice").exists()

    report = owner_erase(user_id="alice")

    assert report.passed, report.as_dict()
    counts = {c.name: (c.before, c.after) for c in report.tables}
    assert counts["documents"] == (1, 0) and counts["document chunks"][0] >= 2 and counts["document versions"][0] >= 1
    with connection.cursor() as cursor:
        for word in ("kestrel", "Pellworm", "granary"):
            for table, column in [
                ("documents_document", "text"),
                ("documents_chunk", "text"),
                ("documents_documenthistory", "text"),
            ]:
                cursor.execute(f"SELECT count(*) FROM {table} WHERE position(%s IN {column}) > 0", [word])
                assert cursor.fetchone()[0] == 0, (word, table)
    assert list(Document.objects.values_list("user_id", flat=True)) == ["bob"]

"""The right to be forgotten: ``owner_erase`` deletes everything stored about one owner (the
``user_id`` memories are about), in one workspace or everywhere, in one transaction, and proves it.

The owner's rows, table by table, in the order they go:

- buffered writes (``PendingInput``: the message in their payload) and the notices about them, about
  the owner, or quoting an erased memory (a contradiction review's notice holds both statements);
- FastThink sessions about the owner (everywhere) or committed into an erased memory, with their
  thoughts; an observation another session recalled from an erased memory is redacted in place;
- contradiction reviews of an erased memory; the memories' access counters, edges (either end),
  history, mentions, concept and category links, federation provenance; the memories;
- entities only erased memories mention, categories only erased memories were filed under (a path
  the LLM made up may carry the owner's words), every atlas snapshot (it quotes memories and counts
  them; a new one is taken at once when there was one), the owner's profiles (they quote memories);
- ingest runs with their stages (the raw message, the extraction's atoms); the inference ledger
  keeps its rows, which hold no prompt, detached from the erased runs;
- tables of the apps above this one, which it never imports, answer ``erasure_tables``: the control
  room redacts the statements its audit trail quotes.

What belongs to the owner is found by ``memory.erasure.plan``. The report counts each
table's rows before and after, then searches every erased text in every text and JSON column of the
database (``memory.erasure.check``). The search statistics and the category counts are folded
inside the erasure (memory.search.corpus, memory.categories.counts): a word only the owner's rows
held leaves them with its last count, and the owner's id leaves the counts with their last memory.

Every erasure is entered in the ledger (``Erasure``: who, where, when, how many rows; no text),
which a restore carries over and honours again (``memory.erasure.ledger``).

The rows it deletes or rewrites stay in the tables' files, as dead row versions, until each table
is compacted (``memory.erasure.compact``, over ``erasure_table_names``). An owner erased everywhere
loses their vector indexes as the erasure commits (``memory.vector_indexes``: each names its owner).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.dispatch import Signal
from django.utils import timezone

from helixsite.errors import Conflict
from helixsite.restore_marker import MESSAGE as RESTORE_MESSAGE
from helixsite.restore_marker import RestoreInProgress, restore_running
from memory.categories import counts
from memory.categories.counts import counts_fold
from memory.categories.models import AtlasSnapshot, Category, Filing
from memory.categories.services import atlas_snapshot_take
from memory.charter.models import ContradictionReview
from memory.documents.models import Chunk, Document, DocumentHistory, ExtractedFrom
from memory.erasure.check import TextCheck, erased_texts_search
from memory.erasure.plan import ErasurePlan, documents_of, erased_texts, erasure_plan, kept_rows
from memory.fastthink.models import ThinkSession, Thought
from memory.models import (
    Edge,
    Entity,
    Erasure,
    Inference,
    IngestRun,
    IngestStage,
    InstanceOf,
    Memory,
    MemoryAccess,
    MemoryHistory,
    Mention,
    Profile,
)
from memory.outbox.models import Notice, PendingInput
from memory.search.corpus import DELTAS, TOTALS, corpus_fold
from memory.vector_indexes import owner_indexes_drop
from rbac.models import MemoryProvenance

ERASED = "[erased]"  # what a redacted text reads afterwards

# Sent once per preview or erasure: apps above memory (which it never imports) answer with the
# ``ErasedTable``s of their own tables that hold an owner's words. The control room answers for its
# audit trail.
erasure_tables = Signal()


@dataclass(frozen=True)
class ErasedTable:
    """One kind of row an erasure removes: ``rows`` are the owner's rows that still hold their
    data (counted before and after), ``erase`` removes them, ``action`` says how."""

    name: str
    table: str
    action: str  # deleted | redacted | detached
    rows: Callable[[ErasurePlan], QuerySet[Any]]
    erase: Callable[[ErasurePlan], object]


@dataclass(frozen=True)
class TableCount:
    name: str
    table: str
    action: str
    before: int
    after: int | None = None  # None in a preview

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "table": self.table,
            "action": self.action,
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class ErasurePreview:
    user_id: str
    workspace: str | None
    tables: list[TableCount]
    shared: int  # memories also visible in another workspace (erased there too)

    @property
    def empty(self) -> bool:
        return not any(count.before for count in self.tables)


@dataclass(frozen=True)
class ErasureReport:
    user_id: str
    workspace: str | None
    tables: list[TableCount]
    check: TextCheck
    refreshed: list[str] = field(default_factory=list)

    @property
    def erased(self) -> int:
        return sum(count.before for count in self.tables)

    @property
    def left(self) -> int:
        return sum(count.after or 0 for count in self.tables)

    @property
    def passed(self) -> bool:
        return self.left == 0 and self.check.clean

    def as_dict(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "workspace": self.workspace,
            "passed": self.passed,
            "rows_before": self.erased,
            "rows_after": self.left,
            "tables": [count.as_dict() for count in self.tables],
            "text_check": self.check.as_dict(),
            "refreshed": self.refreshed,
        }


def owner_erasure_preview(*, user_id: str, workspace: str | None = None) -> ErasurePreview:
    """What ``owner_erase`` would remove now, table by table; nothing is changed."""
    plan = erasure_plan(user_id=user_id, workspace=workspace)
    shared = Memory.objects.filter(pk__in=plan.memory_ids, visible_in__len__gt=1).count() if plan.workspace else 0
    counts = [TableCount(t.name, t.table, t.action, t.rows(plan).count()) for t in _tables()]
    return ErasurePreview(plan.user_id, workspace_slug(plan), counts, shared)


def owner_erase(*, user_id: str, workspace: str | None = None, requested_by: str = "") -> ErasureReport:
    """Erase the owner's rows (in ``workspace``, a slug, or everywhere), verify that none is left,
    and enter it in the ledger of erasures (``Erasure``), which every restore honours.

    One transaction: any failure leaves everything as it was. A buffered write of the owner that
    a worker is running refuses the erasure (409): it would store the owner's words again. So does
    a restore under way (503): the database it writes into is about to be replaced."""
    if restore_running() is not None:
        raise RestoreInProgress(RESTORE_MESSAGE)
    with transaction.atomic():
        plan = erasure_plan(user_id=user_id, workspace=workspace)
        _refuse_while_writing(plan)
        report = plan_erase(plan)
        Erasure.objects.create(
            user_id=report.user_id,
            workspace=report.workspace or "",
            requested_by=requested_by[:150],
            rows_erased=report.erased,
        )
        if plan.workspace is None:  # the owner's vector indexes name them (memory.vector_indexes)
            transaction.on_commit(lambda: owner_indexes_drop(plan.user_id))
    return report


def plan_erase(plan: ErasurePlan) -> ErasureReport:
    """Erase what ``plan`` found, table by table, inside the caller's transaction, and verify it."""
    tables = _tables()
    texts, redraw = erased_texts(plan), atlas_redraw_due(plan)
    before = [t.rows(plan).count() for t in tables]
    for table in tables:
        table.erase(plan)
    after = [t.rows(plan).count() for t in tables]
    corpus_fold(wait=True)
    counts_fold(wait=True)
    check = erased_texts_search(texts=texts, kept=kept_rows(plan))
    counts = [TableCount(t.name, t.table, t.action, b, a) for t, b, a in zip(tables, before, after, strict=True)]
    refreshed = ["the search statistics, folded", "the category counts, folded"]
    refreshed += ["the atlas snapshot, taken again"] if redraw else []
    return ErasureReport(plan.user_id, workspace_slug(plan), counts, check, refreshed)


def erasure_table_names() -> list[str]:
    """Every table an erasure deletes or rewrites rows in, each once, in the order it erases them:
    those of its kinds of row (the apps' above included) and the search statistics it folds."""
    return list(dict.fromkeys([*(table.table for table in _tables()), *_FOLDED, *_KEPT_BY_TRIGGERS]))


# corpus_fold and counts_fold, in plan_erase, delete the deltas and rewrite the totals
_FOLDED = (DELTAS, TOTALS, counts.DELTAS, counts.TOTALS)
# Rows the memories' own triggers delete with them: the kinds each names (memory.search.kinds)
_KEPT_BY_TRIGGERS = ("memory_kindholder",)


def workspace_slug(plan: ErasurePlan) -> str | None:
    return plan.workspace.slug if plan.workspace else None


def _refuse_while_writing(plan: ErasurePlan) -> None:
    """Lock the owner's buffered writes (a worker claims none meanwhile); one being run refuses."""
    pending = PendingInput.objects.select_for_update().filter(pk__in=plan.pending_ids)
    locked = list(pending.values_list("status", "started_at"))
    fresh = timezone.now() - timedelta(seconds=settings.HELIX_TASK_TIMEOUT)
    if any(status == PendingInput.Status.RUNNING and started and started > fresh for status, started in locked):
        raise Conflict(
            f"A buffered write for {plan.target} is being stored right now: erase again once it has finished.",
            code="write_in_progress",
        )


# --- the tables, in the order they are erased -------------------------------------------------


def _tables() -> list[ErasedTable]:
    tables = [
        _deleted("buffered writes", PendingInput, lambda p: PendingInput.objects.filter(pk__in=p.pending_ids)),
        _deleted("notices", Notice, lambda p: Notice.objects.filter(pk__in=p.notice_ids)),
        _deleted(
            "thoughts of their think sessions", Thought, lambda p: Thought.objects.filter(session__in=p.session_ids)
        ),
        _deleted("think sessions", ThinkSession, lambda p: ThinkSession.objects.filter(pk__in=p.session_ids)),
        ErasedTable("thoughts recalling an erased memory", Thought._meta.db_table, "redacted", _cited, _cited_redact),
        _deleted(
            "contradiction reviews",
            ContradictionReview,
            lambda p: ContradictionReview.objects.filter(pk__in=p.review_ids),
        ),
        _deleted(
            "links from their memories or documents' chunks",
            ExtractedFrom,
            lambda p: ExtractedFrom.objects.filter(Q(memory__in=_memories(p)) | Q(chunk__document__in=documents_of(p))),
        ),
        _deleted("document chunks", Chunk, lambda p: Chunk.objects.filter(document__in=documents_of(p))),
        _deleted(
            "document versions", DocumentHistory, lambda p: DocumentHistory.objects.filter(document__in=documents_of(p))
        ),
        _deleted("documents", Document, documents_of),
        *[_deleted(name, model, _of_their_memories(model)) for name, model in _MEMORY_PARTS],
        _deleted("edges", Edge, lambda p: Edge.objects.filter(Q(source__in=_memories(p)) | Q(target__in=_memories(p)))),
        ErasedTable("memories", Memory._meta.db_table, "deleted", _memories, _memories_delete),
        ErasedTable("entities only they mention", Entity._meta.db_table, "deleted", _entities, _entities_delete),
        ErasedTable("categories only they fill", Category._meta.db_table, "deleted", _categories, _categories_delete),
        ErasedTable("atlas snapshots quoting them", AtlasSnapshot._meta.db_table, "deleted", _snapshots, _atlas_redraw),
        ErasedTable("profiles", Profile._meta.db_table, "deleted", _profiles, lambda p: _profiles(p).delete()),
        _deleted("ingest stages", IngestStage, lambda p: IngestStage.objects.filter(run_id__in=p.run_ids)),
        _deleted("ingest runs", IngestRun, _runs_of),
        ErasedTable(
            "inference ledger rows of their runs", Inference._meta.db_table, "detached", _ledger, _ledger_detach
        ),
    ]
    for _, answer in erasure_tables.send(sender=ErasurePlan):
        tables += cast(list[ErasedTable], answer)
    return tables


# The rows that hang on a memory alone, deleted before it (so deleting the memories finds none).
_MEMORY_PARTS = [
    ("access counters", MemoryAccess),
    ("memory history", MemoryHistory),
    ("mentions", Mention),
    ("concept links", InstanceOf),
    ("category filings", Filing),
    ("federation provenance", MemoryProvenance),
]


def _deleted(name: str, model: Any, rows: Callable[[ErasurePlan], QuerySet[Any]]) -> ErasedTable:
    return ErasedTable(name, model._meta.db_table, "deleted", rows, lambda plan: rows(plan).delete())


def _of_their_memories(model: Any) -> Callable[[ErasurePlan], QuerySet[Any]]:
    return lambda plan: model.objects.filter(memory__in=_memories(plan))


def _memories(plan: ErasurePlan) -> QuerySet[Memory]:
    """The owner's memories, found again each time: one written meanwhile counts as left."""
    memories = Memory.objects.filter(user_id=plan.user_id)
    return memories.filter(visible_in__contains=[plan.workspace.id]) if plan.workspace else memories


def _memories_delete(plan: ErasurePlan) -> None:
    Memory.objects.filter(pk__in=plan.memory_ids).only("id").delete()


def _profiles(plan: ErasurePlan) -> QuerySet[Profile]:
    """Their profiles: everywhere, or in the workspace and in any other an erased memory was visible in."""
    profiles = Profile.objects.filter(user_id=plan.user_id)
    if plan.workspace is None:
        return profiles
    return profiles.filter(workspace_id__in=[plan.workspace.id, *plan.seen_in])


def _runs_of(plan: ErasurePlan) -> QuerySet[IngestRun]:
    runs = IngestRun.objects.filter(user_id=plan.user_id)
    return runs.filter(Q(workspace=plan.workspace) | Q(pk__in=plan.run_ids)) if plan.workspace else runs


def _cited(plan: ErasurePlan) -> QuerySet[Thought]:
    return Thought.objects.filter(pk__in=plan.cited_thought_ids).exclude(content=ERASED)


def _cited_redact(plan: ErasurePlan) -> None:
    Thought.objects.filter(pk__in=plan.cited_thought_ids).update(content=ERASED, memory=None)


def _entities(plan: ErasurePlan) -> QuerySet[Entity]:
    return Entity.objects.filter(pk__in=plan.entity_ids)


def _entities_delete(plan: ErasurePlan) -> None:
    # Checked again: an entity a memory written meanwhile mentions is kept.
    _entities(plan).filter(mentions__isnull=True).delete()


def _categories(plan: ErasurePlan) -> QuerySet[Category]:
    return Category.objects.filter(pk__in=plan.category_ids)


_STILL_FILLED = f"""
    SELECT c.id FROM {Category._meta.db_table} c WHERE c.id = ANY(%(ids)s) AND EXISTS (
        SELECT 1 FROM {Filing._meta.db_table} f JOIN {Category._meta.db_table} d ON d.id = f.category_id
        WHERE d.rbac_scope = c.rbac_scope AND d.lineage @> ARRAY[c.path]::varchar[])"""


def _categories_delete(plan: ErasurePlan) -> None:
    # Checked again: a category a memory was filed under meanwhile is kept.
    with connection.cursor() as cursor:
        cursor.execute(_STILL_FILLED, {"ids": plan.category_ids})
        filled = [row[0] for row in cursor.fetchall()]
    _categories(plan).exclude(pk__in=filled).delete()


def _snapshots(plan: ErasurePlan) -> QuerySet[AtlasSnapshot]:
    return AtlasSnapshot.objects.filter(pk__in=plan.snapshot_ids)


def atlas_redraw_due(plan: ErasurePlan) -> bool:
    return bool(plan.memory_ids) and AtlasSnapshot.objects.exists()


def _atlas_redraw(plan: ErasurePlan) -> None:
    """Every snapshot counts the erased memories, and may quote them: all go, a new one is taken."""
    if not atlas_redraw_due(plan):
        return
    AtlasSnapshot.objects.all().delete()
    atlas_snapshot_take()


def _ledger(plan: ErasurePlan) -> QuerySet[Inference]:
    return Inference.objects.filter(run_id__in=plan.run_ids)


def _ledger_detach(plan: ErasurePlan) -> None:
    _ledger(plan).update(run_id=None)

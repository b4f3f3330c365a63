"""What an erasure finds of one owner: their rows, found once (``ErasurePlan``), what they said in
them (``erased_texts``), and the rows kept on purpose that may say it too (``kept_rows``).

In one workspace, "the owner's memories" are those visible in it (one row may be visible in the
other members of a federation too: it is erased for all of them), with the runs that wrote them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from helixsite.errors import InvalidInput, NotFound
from memory.categories.models import AtlasSnapshot, Category, Filing
from memory.charter.models import ContradictionReview
from memory.documents.models import Chunk, Document, DocumentHistory
from memory.erasure.check import KeptRows
from memory.fastthink.models import ThinkSession, Thought
from memory.models import Entity, IngestRun, Memory, MemoryHistory, Mention
from memory.outbox.models import Notice, PendingInput
from rbac.models import Workspace


@dataclass(frozen=True)
class ErasurePlan:
    """The owner's rows, found once: inside the erasure's transaction, or for a preview."""

    user_id: str
    workspace: Workspace | None
    memory_ids: list[uuid.UUID]
    run_ids: list[uuid.UUID]
    pending_ids: list[uuid.UUID]
    session_ids: list[uuid.UUID]
    cited_thought_ids: list[int]
    review_ids: list[uuid.UUID]
    notice_ids: list[uuid.UUID]
    entity_ids: list[int]
    category_ids: list[int]
    snapshot_ids: list[int]
    seen_in: list[int]  # the workspaces an erased memory was visible in

    @property
    def target(self) -> str:
        return f"{self.user_id} in workspace {self.workspace.slug}" if self.workspace else self.user_id


def owner_id_clean(value: str) -> str:
    text = (value or "").strip()
    if not text:
        raise InvalidInput("Name the owner: the user_id their memories are stored under.", field="user_id")
    if len(text) > 200 or any(ord(c) < 32 for c in text):
        raise InvalidInput("A user_id is at most 200 characters, without control characters.", field="user_id")
    return text


def erasure_workspace(slug: str | None) -> Workspace | None:
    if slug is None or not str(slug).strip():
        return None
    workspace = Workspace.objects.filter(slug=str(slug).strip()).first()
    if workspace is None:
        raise NotFound(f"No workspace with the slug {str(slug).strip()[:60]}.", field="workspace")
    return workspace


def erasure_plan(*, user_id: str, workspace: str | None) -> ErasurePlan:
    owner, place = owner_id_clean(user_id), erasure_workspace(workspace)
    memories = Memory.objects.filter(user_id=owner)
    if place is not None:
        memories = memories.filter(visible_in__contains=[place.id])
    memory_ids = list(memories.values_list("id", flat=True))
    seen_in = sorted({pk for ids in memories.values_list("visible_in", flat=True) for pk in ids})
    run_ids = _runs(owner, place, memory_ids)
    pending = PendingInput.objects.filter(user_id=owner)
    pending_ids = list((pending.filter(workspace=place) if place else pending).values_list("id", flat=True))
    # A session committed into an erased memory goes; everywhere, so does every session about them.
    sessions = Q(committed_memory_id__in=memory_ids) | Q(commit_run_id__in=run_ids)
    if place is None:
        sessions |= Q(user_id=owner)
    session_ids = list(ThinkSession.objects.filter(sessions).values_list("id", flat=True))
    cited = Thought.objects.filter(memory_id__in=memory_ids).exclude(session_id__in=session_ids)
    reviews = ContradictionReview.objects.filter(Q(from_memory_id__in=memory_ids) | Q(to_memory_id__in=memory_ids))
    review_ids = list(reviews.values_list("id", flat=True))
    return ErasurePlan(
        user_id=owner,
        workspace=place,
        memory_ids=memory_ids,
        run_ids=run_ids,
        pending_ids=pending_ids,
        session_ids=session_ids,
        cited_thought_ids=list(cited.values_list("id", flat=True)),
        review_ids=review_ids,
        notice_ids=_notices(owner, place, memory_ids, review_ids, pending_ids),
        entity_ids=_entities_only_theirs(memory_ids),
        category_ids=_ids(_CATEGORIES_ONLY_THEIRS, memory_ids),
        snapshot_ids=_ids(_SNAPSHOTS_QUOTING, memory_ids),
        seen_in=seen_in,
    )


def _runs(owner: str, place: Workspace | None, memory_ids: list[uuid.UUID]) -> list[uuid.UUID]:
    runs = IngestRun.objects.filter(user_id=owner)
    if place is not None:
        # The runs that wrote or changed the erased memories, wherever they were asked from.
        wrote = set(Memory.objects.filter(pk__in=memory_ids, run_id__isnull=False).values_list("run_id", flat=True))
        changed = MemoryHistory.objects.filter(memory_id__in=memory_ids, run_id__isnull=False)
        wrote.update(changed.values_list("run_id", flat=True))
        runs = runs.filter(Q(workspace=place) | Q(pk__in=wrote))
    return list(runs.values_list("id", flat=True))


def _notices(
    owner: str, place: Workspace | None, memory_ids: list[uuid.UUID], review_ids: list, pending_ids: list
) -> list[uuid.UUID]:
    subjects = [f"review:{pk}" for pk in review_ids] + [f"pending:{pk}" for pk in pending_ids]
    about_owner = Q(payload__user_id=owner) & (Q(payload__group_id=place.slug) if place else Q())
    quoted = [str(pk) for pk in memory_ids]
    quoting = Q(payload__from_id__in=quoted) | Q(payload__to_id__in=quoted)
    return list(Notice.objects.filter(Q(subject__in=subjects) | about_owner | quoting).values_list("id", flat=True))


def _entities_only_theirs(memory_ids: list[uuid.UUID]) -> list[int]:
    mentioned_elsewhere = Mention.objects.filter(entity=OuterRef("pk")).exclude(memory_id__in=memory_ids)
    entities = Entity.objects.filter(mentions__memory_id__in=memory_ids).exclude(Exists(mentioned_elsewhere))
    return list(entities.values_list("id", flat=True).distinct())


_CATEGORIES_ONLY_THEIRS = f"""
    WITH touched AS (
        SELECT DISTINCT c.rbac_scope, p.path
        FROM {Filing._meta.db_table} f JOIN {Category._meta.db_table} c ON c.id = f.category_id
        CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE f.memory_id = ANY(%(erased)s::uuid[])
    )
    SELECT c.id FROM {Category._meta.db_table} c JOIN touched t ON t.rbac_scope = c.rbac_scope AND t.path = c.path
    WHERE NOT EXISTS (
        SELECT 1 FROM {Filing._meta.db_table} f JOIN {Category._meta.db_table} d ON d.id = f.category_id
        WHERE d.rbac_scope = c.rbac_scope AND d.lineage @> ARRAY[c.path]::varchar[]
          AND NOT f.memory_id = ANY(%(erased)s::uuid[])
    )"""


_SNAPSHOTS_QUOTING = f"""
    SELECT s.id FROM {AtlasSnapshot._meta.db_table} s
    WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(s.memories) e WHERE e->>'id' = ANY(%(erased)s::text[]))"""


def _ids(sql: str, memory_ids: list[uuid.UUID]) -> list[int]:
    """The rows ``sql`` finds for the erased memories: categories whose whole subtree holds only
    erased memories (an ancestor too, when so), atlas snapshots that quote one."""
    if not memory_ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, {"erased": [str(pk) for pk in memory_ids]})
        return [row[0] for row in cursor.fetchall()]


def documents_of(plan: ErasurePlan) -> QuerySet[Document]:
    """The owner's documents (in the workspace: those visible in it), forgotten ones included."""
    documents = Document.objects.filter(user_id=plan.user_id)
    return documents.filter(visible_in__contains=[plan.workspace.id]) if plan.workspace else documents


def erased_texts(plan: ErasurePlan) -> list[str]:
    """Everything the owner said that the erasure removes, to search for afterwards."""
    texts: list[str] = []
    documents = documents_of(plan)
    for title, text in documents.values_list("title", "text"):
        texts += [title, text]
    texts += DocumentHistory.objects.filter(document__in=documents).values_list("text", flat=True)
    texts += Chunk.objects.filter(document__in=documents).values_list("text", flat=True)
    for content, context in Memory.objects.filter(pk__in=plan.memory_ids).values_list("content", "context"):
        texts += [content, context]
    history = MemoryHistory.objects.filter(memory_id__in=plan.memory_ids)
    for old, new in history.values_list("old_content", "new_content"):
        texts += [old, new]
    texts += IngestRun.objects.filter(pk__in=plan.run_ids).values_list("message", flat=True)
    for payload in PendingInput.objects.filter(pk__in=plan.pending_ids).values_list("payload", flat=True):
        message = payload.get("message") if isinstance(payload, dict) else None
        texts += [message] if isinstance(message, str) else []
    return texts


def kept_rows(plan: ErasurePlan) -> list[KeptRows]:
    """Rows the erasure keeps on purpose (another owner's, or this owner's in another workspace):
    a text one of them still holds was said there too, and is not looked for elsewhere."""
    in_place = "(%(workspace)s::int IS NULL OR {alias}.visible_in @> ARRAY[%(workspace)s::int])"
    memory = Memory._meta.db_table
    theirs = f"m.user_id = %(owner)s AND {in_place.format(alias='m')}"
    params = {"owner": plan.user_id, "workspace": plan.workspace.id if plan.workspace else None, "runs": plan.run_ids}
    return [
        KeptRows(Memory, f"NOT (r.user_id = %(owner)s AND {in_place.format(alias='r')})", params),
        KeptRows(Document, f"NOT (r.user_id = %(owner)s AND {in_place.format(alias='r')})", params),
        KeptRows(Chunk, f"NOT (r.user_id = %(owner)s AND {in_place.format(alias='r')})", params),
        KeptRows(
            DocumentHistory,
            f"NOT EXISTS (SELECT 1 FROM {Document._meta.db_table} d WHERE d.id = r.document_id"
            f" AND d.user_id = %(owner)s AND {in_place.format(alias='d')})",
            params,
        ),
        KeptRows(MemoryHistory, f"NOT EXISTS (SELECT 1 FROM {memory} m WHERE m.id = r.memory_id AND {theirs})", params),
        KeptRows(
            IngestRun,
            "NOT (r.user_id = %(owner)s AND (%(workspace)s::int IS NULL OR r.workspace_id = %(workspace)s::int"
            " OR r.id = ANY(%(runs)s::uuid[])))",
            params,
        ),
        KeptRows(
            PendingInput,
            "NOT (r.user_id = %(owner)s AND (%(workspace)s::int IS NULL OR r.workspace_id = %(workspace)s::int))",
            params,
        ),
    ]

"""The memories extracted from a document (``extract=true``) when the document stops saying them.

Extraction links each memory it wrote, or found known, to the chunk it read (EXTRACTED_FROM).
When the document is forgotten, or a new version no longer has a chunk's text, the memories
nothing else says any more are forgotten as ``forget_memory`` forgets: soft-deleted, with a
history row naming the document, restorable by a global admin. A memory still stands when any
of these says it:

- a current chunk of a document not forgotten: another document's, or this one's new version
  (a chunk whose text an earlier version had keeps that chunk's links, ``extracted_links_carry``);
- an ``add_memory`` that was not a document's reading: the call that wrote it, or a later one that
  found it known or updated it (a conversation confirming it). A document's reading is told
  apart in the run log: its message is the prose of a chunk the memory is linked to, and it
  started while that chunk was being read;
- a person: it was corrected, or restored after a forget.

The raw memory enrichment keeps of a paragraph no one memory says (a long one that gave several
memories, or one its memories leave mostly unsaid; they are PART_OF it) is the chunk's prose word
for word: it goes with the chunk, unless a current chunk read for one of its parts has the same
prose.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from memory.documents.chunks import chunk_prose
from memory.documents.models import Chunk, Document, ExtractedFrom
from memory.lifecycle import memories_hide
from memory.models import Edge, EdgeType, HistoryAction, IngestRun, Memory, MemoryHistory, MemoryType
from rbac.actors import Actor

# A chunk that still says what it was read for: its document not forgotten, its version current.
_SAYING = Q(chunk__deleted_at__isnull=True, chunk__superseded_at__isnull=True)
_SILENT = Q(chunk__deleted_at__isnull=False) | Q(chunk__superseded_at__isnull=False)
_VOUCHED = (HistoryAction.CORRECT, HistoryAction.RESTORE)


def extracted_links_carry(*, document: Document, position: int, text: str) -> None:
    """The chunk at ``position`` of a new version, whose text the previous version had, and had
    read: the memories read from it stay linked to the new chunk, which is not read again (a second
    reading could bring back a statement a conversation has since superseded)."""
    if document.version < 2:
        return
    earlier = Chunk.objects.filter(
        document_id=document.pk, version=document.version - 1, text=text, extracted_at__isnull=False
    )
    if not earlier.exists():
        return
    chunk_id = Chunk.objects.values_list("id", flat=True).get(
        document_id=document.pk, version=document.version, position=position
    )
    links = ExtractedFrom.objects.filter(chunk__in=earlier, memory__deleted_at__isnull=True)
    carried = {memory_id: created for memory_id, created in links.values_list("memory_id", "created")}
    ExtractedFrom.objects.bulk_create(
        [ExtractedFrom(memory_id=m, chunk_id=chunk_id, created=created) for m, created in carried.items()],
        ignore_conflicts=True,
    )
    Chunk.objects.filter(pk=chunk_id, extracted_at__isnull=True).update(extracted_at=timezone.now())


def extracted_memories_retire(*, document: Document, actor: Actor, reason: str, now: datetime) -> int:
    """Forget the memories read from ``document``'s chunks that no longer say anything (forgotten,
    or of an earlier version) and that nothing else says; returns how many. Inside the caller's
    transaction, after its chunks were marked."""
    left = list(_left_behind(document))
    standing = _said_elsewhere(left)
    retired = list({m.pk: m for m in [*(m for m in left if m.pk not in standing), *_raw_copies(document)]}.values())
    if not retired:
        return 0
    details: dict[str, Any] = {"document_id": str(document.pk), "title": document.title, "version": document.version}
    memories_hide(retired, reason=reason, details=details, now=now, actor=actor)
    return len(retired)


def _left_behind(document: Document) -> Iterable[Memory]:
    """Live memories read from chunks of ``document`` that say nothing now, and from no chunk that does."""
    silent = ExtractedFrom.objects.filter(chunk__document=document).filter(_SILENT).values("memory_id")
    saying = ExtractedFrom.objects.filter(_SAYING, memory_id=OuterRef("pk"))
    return (
        Memory.objects.select_for_update(of=("self",))
        .filter(pk__in=silent, deleted_at__isnull=True)
        .filter(~Exists(saying))
        .defer("embedding")
        .order_by("pk")
    )


def _said_elsewhere(memories: list[Memory]) -> set[uuid.UUID]:
    """Which of ``memories`` a write other than a document's reading, or a person, stands for."""
    if not memories:
        return set()
    ids = {m.pk for m in memories}
    readings = _readings(ids)
    standing = {m.pk for m in memories if m.run_id is None}  # imported, or written without a run
    written_by: dict[uuid.UUID, set[uuid.UUID]] = {}
    for memory in memories:
        if memory.run_id is not None:
            written_by.setdefault(memory.run_id, set()).add(memory.pk)
    held = [str(i) for i in ids]
    runs = (
        IngestRun.objects.filter(user_id__in={m.user_id for m in memories})
        .filter(
            Q(pk__in=list(written_by)) | Q(result__deduped__has_any_keys=held) | Q(result__updated__has_any_keys=held)
        )
        .values_list("id", "message_hash", "started_at", "result__deduped", "result__updated")
    )
    for run_id, message_hash, started_at, deduped, updated in runs:
        holders = {uuid.UUID(i) for i in [*(deduped or []), *(updated or [])]} & ids
        holders |= written_by.pop(run_id, set())
        standing |= {m for m in holders if not _a_reading(message_hash, started_at, readings.get(m, []))}
    for unknown in written_by.values():  # the run that wrote it is not kept: who said it is unknown
        standing |= unknown
    vouched = MemoryHistory.objects.filter(memory_id__in=ids, action__in=_VOUCHED).values_list("memory_id", flat=True)
    return standing | set(vouched)


@dataclass(frozen=True)
class _Reading:
    """How the add_memory call that read a chunk looks in the run log: its message is the chunk's
    prose, and it started after the chunk was stored and before it was marked read."""

    prose_hash: str
    after: datetime
    before: datetime | None  # None: not marked read yet


def _readings(memory_ids: set[uuid.UUID]) -> dict[uuid.UUID, list[_Reading]]:
    """For each memory, the readings of the chunks it is linked to."""
    links = ExtractedFrom.objects.filter(memory_id__in=memory_ids)
    readings: dict[uuid.UUID, list[_Reading]] = {}
    for memory_id, text, stored, read in links.values_list(
        "memory_id", "chunk__text", "chunk__created_at", "chunk__extracted_at"
    ):
        readings.setdefault(memory_id, []).append(_Reading(_prose_hash(text), stored, read))
    return readings


def _a_reading(message_hash: str, started_at: datetime, readings: list[_Reading]) -> bool:
    return any(
        r.prose_hash == message_hash and r.after <= started_at and (r.before is None or started_at <= r.before)
        for r in readings
    )


def _raw_copies(document: Document) -> list[Memory]:
    """The raw memories that keep whole the prose of ``document``'s chunks that say nothing now
    (enrichment keeps a paragraph no one memory says whole, as the raw memory they are PART_OF),
    unless a current chunk read for one of those memories has the same prose."""
    read = ExtractedFrom.objects.filter(chunk__document=document).filter(_SILENT).values("memory_id")
    parts = Edge.objects.live().filter(edge_type=EdgeType.PART_OF, source_id__in=read).values("target_id")
    raws = list(
        Memory.objects.select_for_update(of=("self",))
        .filter(pk__in=parts, deleted_at__isnull=True, memory_type=MemoryType.RAW)
        .defer("embedding")
        .order_by("pk")
    )
    if not raws:
        return []
    silent = Chunk.objects.filter(document=document).filter(
        Q(deleted_at__isnull=False) | Q(superseded_at__isnull=False)
    )
    silent_prose = {_prose_hash(text) for text in silent.values_list("text", flat=True)}
    ours = {raw.pk: raw for raw in raws if _hash(raw.content) in silent_prose}
    parts_of: dict[uuid.UUID, set[uuid.UUID]] = {}
    edges = Edge.objects.live().filter(edge_type=EdgeType.PART_OF, target_id__in=ours)
    for part, raw_id in edges.values_list("source_id", "target_id"):
        parts_of.setdefault(part, set()).add(raw_id)
    saying: dict[uuid.UUID, set[str]] = {}  # raw memory → the prose of current chunks read for its parts
    links = ExtractedFrom.objects.filter(_SAYING, memory_id__in=parts_of).values_list("memory_id", "chunk__text")
    for part, text in links:
        for raw_id in parts_of[part]:
            saying.setdefault(raw_id, set()).add(_prose_hash(text))
    vouched = set(
        MemoryHistory.objects.filter(memory_id__in=ours, action__in=_VOUCHED).values_list("memory_id", flat=True)
    )
    return [raw for pk, raw in ours.items() if _hash(raw.content) not in saying.get(pk, set()) and pk not in vouched]


def _prose_hash(text: str) -> str:
    """The message_hash of the add_memory call that read a chunk of this text."""
    return _hash(chunk_prose(text))


def _hash(message: str) -> str:
    return hashlib.sha256(message.encode()).hexdigest()

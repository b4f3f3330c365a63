"""How a stored memory changes, written once for ingestion and for manual correction alike:
rewritten in place with a history row, or superseded by a successor (``valid_to``, a
SUPERSEDES edge and a history row). Nothing is deleted. The caller has authorized the change
and holds the row's lock."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from memory.models import Edge, EdgeType, HistoryAction, Memory, MemoryHistory
from rbac.actors import Actor, recorded_user


def memory_rewrite(
    *,
    memory: Memory,
    content: str,
    content_key: str,
    embedding: np.ndarray,
    facets: dict[str, Any],
    action: str,
    actor: Actor,
    reason: str,
    details: dict[str, Any] | None = None,
    run_id: uuid.UUID | None = None,
    importance: float | None = None,
    now: datetime | None = None,
) -> Memory:
    """New content, fingerprint and vector for ``memory`` (locked by the caller), the old text kept
    in history. ``now``: when it changed, if not now (an import replaying a store's history)."""
    now = now or timezone.now()
    MemoryHistory.objects.create(
        memory=memory,
        action=action,
        old_content=memory.content,
        new_content=content,
        details=details or {},
        actor=recorded_user(actor),
        reason=reason[:500],
        run_id=run_id,
        created_at=now,
    )
    memory.content, memory.content_key, memory.embedding, memory.facets = content, content_key, embedding, facets
    memory.updated_at = now
    fields = ["content", "content_key", "embedding", "facets", "updated_at"]
    if importance is not None:
        memory.importance = importance
        fields.append("importance")
    memory.save(update_fields=fields)
    return memory


def memory_supersede(
    *,
    actor: Actor,
    memory: Memory,
    successor: Memory,
    reason: str,
    confidence: float = 1.0,
    details: dict[str, Any] | None = None,
    run_id: uuid.UUID | None = None,
    now: datetime | None = None,
) -> bool:
    """``successor`` replaces ``memory``. Returns False when ``memory`` was no longer current."""
    with transaction.atomic():
        locked = Memory.objects.current().select_for_update().filter(pk=memory.pk).first()
        if locked is None:
            return False
        locked.valid_to = locked.updated_at = now or timezone.now()
        locked.save(update_fields=["valid_to", "updated_at"])
        MemoryHistory.objects.create(
            memory=locked,
            action=HistoryAction.SUPERSEDE,
            old_content=locked.content,
            new_content=successor.content,
            details={"superseded_by": str(successor.id), **(details or {})},
            actor=recorded_user(actor),
            reason=reason[:500],
            run_id=run_id,
        )
        edge_add(
            actor=actor,
            source_id=successor.id,
            target_id=locked.id,
            edge_type=EdgeType.SUPERSEDES,
            reason=reason,
            confidence=confidence,
            run_id=run_id,
        )
    return True


def edge_add(
    *,
    actor: Actor,
    source_id: uuid.UUID,
    target_id: uuid.UUID,
    edge_type: str,
    reason: str,
    confidence: float = 1.0,
    run_id: uuid.UUID | None = None,
) -> None:
    """A typed edge source → target, unless it exists already (or would loop on one memory)."""
    edges_add(actor=actor, edges=[(source_id, target_id, edge_type, reason, confidence)], run_id=run_id)


def edges_add(
    *, actor: Actor, edges: list[tuple[uuid.UUID, uuid.UUID, str, str, float]], run_id: uuid.UUID | None = None
) -> None:
    """``edge_add`` for each (source, target, type, reason, confidence), in one statement."""
    made = [
        Edge(
            source_id=source_id,
            target_id=target_id,
            edge_type=edge_type,
            confidence=confidence,
            reason=reason[:500],
            created_by=recorded_user(actor),
            run_id=run_id,
        )
        for source_id, target_id, edge_type, reason, confidence in edges
        if source_id != target_id
    ]
    if made:
        Edge.objects.bulk_create(made, ignore_conflicts=True)


def edge_retype(*, actor: Actor, source: Memory, target: Memory, old_type: str, new_type: str, reason: str) -> None:
    """Relabel the live ``old_type`` edge source → target as ``new_type``: the old edge is expired, not deleted."""
    with transaction.atomic():
        Edge.objects.live().filter(source=source, target=target, edge_type=old_type).update(expired_at=timezone.now())
        edge_add(actor=actor, source_id=source.id, target_id=target.id, edge_type=new_type, reason=reason)

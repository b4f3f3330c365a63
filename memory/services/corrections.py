"""Corrections by id: update a memory's content, forget it (soft delete), restore it."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from helixsite.errors import ApplicationError, Conflict, Forbidden, NotFound
from memory.embedding_space import embedding_space_check
from memory.ingest.atoms import content_key
from memory.ingest.english.attributes import find_attribute
from memory.ingest.english.negation import is_negated
from memory.models import HistoryAction, Memory, MemoryHistory, MemorySource
from memory.profiles import profiles_touch_memories
from memory.providers import ProviderError, get_embedder
from memory.revisions import memory_rewrite
from memory.selectors import memory_get_for_actor
from rbac.actors import Actor, recorded_user
from rbac.policy import is_global_admin, may_change


def memory_update(
    *, actor: Actor, memory_id: Any, content: str, reason: str = "", user_id: str | None = None
) -> Memory:
    """Correct a memory by id: content and vector change in the same write, history kept.

    A worker may correct its own memories, a moderator any in its workspaces. ``user_id``,
    when given, must be the memory's owner (the agent's check that it names the right one).
    """
    memory = memory_get_for_actor(actor=actor, memory_id=memory_id)
    if user_id is not None and memory.user_id != user_id:
        raise NotFound("No memory with this id belongs to this user_id.", field="user_id")
    _authorize_correction(actor, memory)
    if memory.immutable or memory.source == MemorySource.RAW_INPUT:
        raise Conflict(
            "This memory is immutable: raw inputs and protected memories are never rewritten.", code="immutable"
        )
    content = content.strip()
    key = content_key(scope=memory.rbac_scope, memory_type=memory.memory_type, content=content)
    vector = _embed_or_fail([content])[0]
    with transaction.atomic():
        locked = Memory.objects.select_for_update().get(pk=memory.pk)
        clash = (
            Memory.objects.current()
            .filter(rbac_scope=locked.rbac_scope, user_id=locked.user_id, content_key=key)
            .exclude(pk=locked.pk)
            .first()
        )
        if clash:
            raise Conflict("Another memory already says this.", code="duplicate", details={"memory_id": str(clash.id)})
        attribute = find_attribute(content, locked.user_id)
        facets = {"negated": is_negated(content), **({"attribute": attribute.as_list()} if attribute else {})}
        profiles_touch_memories([locked])
        corrected = memory_rewrite(
            memory=locked,
            content=content,
            content_key=key,
            embedding=vector,
            facets=facets,
            action=HistoryAction.CORRECT,
            actor=actor,
            reason=reason,
        )
        embedding_space_check()  # after the write, as add_memory's: a re-embed's switch it waited on is seen
        return corrected


def memory_forget(*, actor: Actor, memory_id: Any, reason: str = "") -> Memory:
    """Soft-delete a memory: it leaves every read path, its row and history stay, and a
    global admin can restore it. The author (with write access), a moderator or an admin."""
    memory = memory_get_for_actor(actor=actor, memory_id=memory_id)
    _authorize_correction(actor, memory)
    with transaction.atomic():
        locked = Memory.objects.select_for_update().get(pk=memory.pk)
        locked.deleted_at = locked.updated_at = timezone.now()
        locked.save(update_fields=["deleted_at", "updated_at"])
        _history(locked, HistoryAction.FORGET, actor, reason)
        profiles_touch_memories([locked])
    return locked


def memory_restore(*, actor: Actor, memory_id: Any, reason: str = "") -> Memory:
    """Bring a forgotten memory back (global admins only), unless an equal one was written since."""
    if not is_global_admin(actor):
        raise Forbidden("Only a global admin may restore a forgotten memory.", details={"action": "restore"})
    memory = Memory.objects.filter(pk=_uuid_or_404(memory_id), deleted_at__isnull=False).first()
    if memory is None:
        raise NotFound("No forgotten memory with this id.", field="memory_id")
    with transaction.atomic():
        locked = Memory.objects.select_for_update().get(pk=memory.pk)
        if locked.valid_to is None and (
            Memory.objects.current()
            .filter(rbac_scope=locked.rbac_scope, user_id=locked.user_id, content_key=locked.content_key)
            .exists()
        ):
            raise Conflict("An equal memory was written since; it was not restored.", code="duplicate")
        locked.deleted_at, locked.updated_at = None, timezone.now()
        locked.save(update_fields=["deleted_at", "updated_at"])
        _history(locked, HistoryAction.RESTORE, actor, reason)
        profiles_touch_memories([locked])
    return locked


def _history(memory: Memory, action: str, actor: Actor, reason: str) -> None:
    """A state change (forget, restore): the content stays as it was."""
    MemoryHistory.objects.create(
        memory=memory,
        action=action,
        old_content=memory.content,
        new_content=memory.content,
        actor=recorded_user(actor),
        reason=(reason or "")[:500],
    )


def _uuid_or_404(value: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise NotFound("No forgotten memory with this id.", field="memory_id") from None


def _authorize_correction(actor: Actor, memory: Memory) -> None:
    if may_change(actor=actor, author_id=memory.author_id, visible_in=memory.visible_in):
        return
    raise Forbidden(
        "Only the author (with write access) or a moderator of its workspace may correct this memory.",
        details={"action": "correct"},
    )


def _embed_or_fail(texts: list[str]) -> np.ndarray:
    embedding_space_check()
    try:
        return get_embedder().embed(texts, purpose="correct")
    except ProviderError as exc:
        raise ApplicationError(str(exc), code=exc.code, status=503) from exc

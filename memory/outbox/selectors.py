"""Reads of the outbox: the status of a buffered write."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from helixsite.errors import NotFound
from memory.outbox.models import PendingInput
from rbac.actors import Actor
from rbac.policy import is_active, is_global_admin


def pending_input_get_for_actor(*, actor: Actor, pending_id: Any) -> PendingInput:
    """The access gate: only the creator, the owner (the principal named by its user_id) or a global admin.

    Anyone else gets the answer a nonexistent id gets."""
    try:
        pk = uuid.UUID(str(pending_id))
    except ValueError:
        raise NotFound("Pending write not found.", field="pending_id") from None
    pending = PendingInput.objects.select_related("creator", "workspace").filter(pk=pk).first()
    if pending is None or not _may_see(actor, pending):
        raise NotFound("Pending write not found.", field="pending_id")
    return pending


def add_status_get(*, actor: Actor, pending_id: Any) -> dict[str, Any]:
    """get_add_status: where a buffered write stands, with its result once done or its error once failed."""
    pending = pending_input_get_for_actor(actor=actor, pending_id=pending_id)
    status: dict[str, Any] = {
        "ok": True,
        "pending_id": str(pending.id),
        "status": pending.status,
        "user_id": pending.user_id,
        "group_id": pending.workspace.slug,
        "created_at": pending.created_at.isoformat(),
        "started_at": pending.started_at.isoformat() if pending.started_at else None,
        "finished_at": pending.finished_at.isoformat() if pending.finished_at else None,
    }
    if pending.status == PendingInput.Status.DONE:
        status["result"] = pending.result
    elif pending.status == PendingInput.Status.FAILED:
        status["error"] = {"code": pending.error_code, "message": pending.error_message}
    return status


def ops_recipients(*, creator: User) -> list[User]:
    """Who is told that a buffered write failed: its creator and every active global admin."""
    admins = get_user_model().objects.filter(is_active=True, principal__is_global_admin=True).order_by("username")
    return list({getattr(user, "pk", None): user for user in [creator, *admins]}.values())


def _may_see(actor: Actor, pending: PendingInput) -> bool:
    if not is_active(actor):
        return False
    if is_global_admin(actor):
        return True
    username = actor.get_username() if hasattr(actor, "get_username") else None
    return pending.creator_id == getattr(actor, "pk", None) or username == pending.user_id

"""Writes of the control room itself."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from stewardship.models import AuditEntry


def audit_record(
    *, actor: User, action: str, target: str, before: dict[str, Any] | None = None, after: dict[str, Any] | None = None
) -> AuditEntry:
    """Write one line of the audit trail. Call it inside the action's transaction, so an action
    that fails leaves no line and a line never describes something that did not happen."""
    return AuditEntry.objects.create(
        actor=actor, actor_name=actor.get_username(), action=action, target=target, before=before, after=after
    )

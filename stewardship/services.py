"""Writes of the control room itself."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from stewardship.metrics import stored_counts
from stewardship.models import AuditEntry, CountsSnapshot

COUNTS_KEPT = 12  # snapshots of the counts kept: an hour of the schedule


def audit_record(
    *, actor: User, action: str, target: str, before: dict[str, Any] | None = None, after: dict[str, Any] | None = None
) -> AuditEntry:
    """Write one line of the audit trail. Call it inside the action's transaction, so an action
    that fails leaves no line and a line never describes something that did not happen."""
    return AuditEntry.objects.create(
        actor=actor, actor_name=actor.get_username(), action=action, target=target, before=before, after=after
    )


def counts_snapshot_take() -> CountsSnapshot:
    """Count what is stored now (``stored_counts``) and keep it as the newest snapshot; older
    snapshots past the last ``COUNTS_KEPT`` are dropped."""
    started = time.perf_counter()
    counts = stored_counts()
    snapshot = CountsSnapshot.objects.create(
        taken_at=timezone.now(), duration_ms=round((time.perf_counter() - started) * 1000, 1), counts=counts
    )
    kept = CountsSnapshot.objects.order_by("-taken_at").values_list("id", flat=True)[:COUNTS_KEPT]
    CountsSnapshot.objects.exclude(id__in=list(kept)).delete()
    return snapshot

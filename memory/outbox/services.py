"""The outbox: buffered writes waiting for the worker (``PendingInput``) and the notices addressed
to callers (``Notice``). A finished write's outcome and the notices for a caller reach that caller
once, in ``pending_outcomes`` of a later add_memory (``outbox_deliver``).

Which add is buffered, and what the worker runs, is ``memory.services.add``'s to decide: this
module stores, claims, finishes and delivers.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from memory.models import Memory
from memory.outbox.models import Notice, NoticeKind, PendingInput
from memory.outbox.selectors import ops_recipients
from rbac.actors import Actor, recorded_user
from rbac.policy import WriteDomain


def pending_input_create(*, actor: User, domain: WriteDomain, user_id: str, payload: dict[str, Any]) -> PendingInput:
    """A write accepted for the worker: checked, authorized and placed in its domain already."""
    return PendingInput.objects.create(
        creator=actor, user_id=user_id, workspace=domain.workspace, rbac_scope=domain.scope, payload=payload
    )


def pending_input_claim(*, pending_id: uuid.UUID) -> PendingInput | None:
    """Take the write for this worker; None when another took it or it is not waiting any more.
    A conditional update, so a retried task never runs a write twice."""
    now = timezone.now()
    claimed = (
        PendingInput.objects.claimable(now=now)
        .filter(pk=pending_id)
        .update(status=PendingInput.Status.RUNNING, started_at=now, attempts=F("attempts") + 1)
    )
    if not claimed:
        return None
    return PendingInput.objects.select_related("creator", "workspace").get(pk=pending_id)


def pending_inputs_requeue_take(*, before: datetime, limit: int) -> list[str]:
    """The ids of up to ``limit`` writes ``stranded`` before ``before``, oldest first, marked as
    queued again now (the caller queues them); a sweep running alongside takes others."""
    with transaction.atomic():
        stranded = PendingInput.objects.stranded(before=before).order_by("created_at")
        ids = list(stranded.select_for_update(skip_locked=True).values_list("id", flat=True)[:limit])
        PendingInput.objects.filter(pk__in=ids).update(requeued_at=timezone.now())
    return [str(pk) for pk in ids]


def pending_input_finish(*, pending: PendingInput, result: dict[str, Any]) -> None:
    _finish(pending, status=PendingInput.Status.DONE, result=result)


def pending_input_fail(*, pending: PendingInput, code: str, message: str, result: dict[str, Any] | None = None) -> None:
    """The write failed: its creator and the operators are told. It stored nothing, but for a
    conversation whose messages before the failed one stand (``result["written"]``)."""
    written = len((result or {}).get("written", []))
    stored = f"its first {written} messages were stored" if written else "nothing was stored"
    with transaction.atomic():
        _finish(pending, status=PendingInput.Status.FAILED, result=result, code=code, message=message)
        Notice.objects.address(
            kind=NoticeKind.OPS_ALERT,
            subject=f"pending:{pending.id}",
            recipients=ops_recipients(creator=pending.creator),
            payload={
                "alert": "buffered_write_failed",
                "pending_id": str(pending.id),
                "user_id": pending.user_id,
                "group_id": pending.workspace.slug,
                "error": {"code": code, "message": message[:1000]},
                "message": f"A buffered add failed ({code}); {stored}. Tell the operator.",
            },
        )


def outbox_deliver(*, actor: Actor, before: datetime) -> list[dict[str, Any]]:
    """Finished buffered writes of ``actor`` and notices addressed to them, from before ``before``; each once.

    An open contradiction review surfaces again every HELIX_NOTICE_RESURFACE_HOURS until it is settled.
    """
    user = recorded_user(actor)
    if user is None:
        return []
    limit, now = settings.HELIX_PENDING_OUTCOMES_MAX, timezone.now()
    with transaction.atomic():
        pending = list(
            PendingInput.objects.undelivered_for(user)
            .filter(finished_at__lt=before)
            .select_for_update(skip_locked=True)[:limit]
        )
        notices = list(
            Notice.objects.deliverable_to(user, now=now)
            .filter(created_at__lt=before)
            .select_for_update(skip_locked=True)[: limit - len(pending)]
        )
        notices = _still_readable(actor, notices, now)
        PendingInput.objects.filter(pk__in=[p.pk for p in pending]).update(delivered_at=now)
        Notice.objects.filter(pk__in=[n.pk for n in notices]).update(delivered_at=now, deliveries=F("deliveries") + 1)
    return [_outcome_as_dict(p) for p in pending] + [_notice_as_dict(n) for n in notices]


def outbox_prune(*, now: datetime | None = None) -> dict[str, int]:
    """Forget delivered or retired notices and finished buffered writes older than the retention.

    Notices of reviews still open are kept: they surface again until settled.
    """
    cutoff = (now or timezone.now()) - timedelta(days=settings.HELIX_OUTBOX_RETENTION_DAYS)
    retired = Notice.objects.filter(retired_at__lt=cutoff)
    delivered = Notice.objects.filter(delivered_at__lt=cutoff, resurfaces=False)
    notices, _ = (retired | delivered).delete()
    pending, _ = PendingInput.objects.finished().filter(finished_at__lt=cutoff).delete()
    return {"notices": notices, "pending_inputs": pending}


# --- delivery --------------------------------------------------------------------------------


def _still_readable(actor: Actor, notices: list[Notice], now: datetime) -> list[Notice]:
    """A review notice carries both memories' text: one whose reader lost sight of either is retired unsent."""
    reviews = [n for n in notices if n.kind == NoticeKind.CONTRADICTION_REVIEW]
    wanted = {i for n in reviews for i in (n.payload.get("from_id"), n.payload.get("to_id")) if i}
    if not wanted:
        return notices
    visible = {
        str(pk) for pk in Memory.objects.live().visible_to(actor).filter(pk__in=wanted).values_list("id", flat=True)
    }
    lost = [n for n in reviews if not {n.payload.get("from_id"), n.payload.get("to_id")} <= visible]
    Notice.objects.filter(pk__in=[n.pk for n in lost]).update(retired_at=now)
    return [n for n in notices if n not in lost]


def _outcome_as_dict(pending: PendingInput) -> dict[str, Any]:
    outcome: dict[str, Any] = {
        "kind": "add_outcome",
        "pending_id": str(pending.id),
        "status": pending.status,
        "user_id": pending.user_id,
        "created_at": pending.created_at.isoformat(),
        "finished_at": pending.finished_at.isoformat() if pending.finished_at else None,
    }
    if pending.status == PendingInput.Status.DONE:
        outcome["result"] = pending.result
    else:
        outcome["error"] = {"code": pending.error_code, "message": pending.error_message}
    return outcome


def _notice_as_dict(notice: Notice) -> dict[str, Any]:
    return {
        "kind": notice.kind,
        "notice_id": str(notice.id),
        "created_at": notice.created_at.isoformat(),
        "delivery": notice.deliveries + 1,
        **notice.payload,
    }


def _finish(
    pending: PendingInput, *, status: str, result: dict | None = None, code: str = "", message: str = ""
) -> None:
    pending.status, pending.result, pending.finished_at = status, result or {}, timezone.now()
    pending.error_code, pending.error_message = code, message[:4000]
    pending.save(update_fields=["status", "result", "finished_at", "error_code", "error_message"])

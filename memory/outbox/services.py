"""The agent-level add (buffered or not), the worker's half of a buffered write, delivery of the outbox.

Every add answers bad input and refusals at once, buffered or not: validation,
authorization and the write domain are settled before anything is stored. A buffered
write is a PendingInput the worker runs as its creator; its outcome, and the notices
addressed to a caller, reach that caller once in ``pending_outcomes`` of a later add.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django_q.tasks import async_task

from helixsite.errors import ApplicationError
from memory.charter.selectors import ops_recipients, rule_proposal_matching
from memory.charter.services import contradiction_reviews_open, rule_proposal_adopt
from memory.models import Memory
from memory.outbox.models import Notice, NoticeKind, PendingInput
from memory.services import memory_add, memory_add_validate, memory_add_validated
from rbac.policy import WriteDomain

_EMPTY_ADD = {"memory_ids": [], "updated": [], "deduped": [], "skipped": [], "needs_clarification": []}


def memory_add_submit(
    *,
    actor: Any,
    user_id: str,
    message: str,
    group_id: str | int | None = None,
    agent_id: str = "",
    metadata: Any = None,
    occurred_at: datetime | str | None = None,
    extract: bool = True,
    context: Any = None,
) -> dict[str, Any]:
    """add_memory for agents: memory_add now, or accepted for the worker when HELIX_ADD_BUFFERED is on.

    The exact call a rule proposal names adopts the rule instead of storing a memory.
    Earlier outcomes and notices for the caller ride along as ``pending_outcomes``.
    """
    started = timezone.now()
    options = {"agent_id": agent_id, "metadata": metadata, "occurred_at": occurred_at, "context": context}
    data, domain = memory_add_validate(actor=actor, user_id=user_id, message=message, group_id=group_id, **options)
    proposal = rule_proposal_matching(user_id=data.user_id, domain=domain, message=data.message, metadata=data.metadata)
    if proposal is not None:
        result = {"ok": True, **_EMPTY_ADD, **rule_proposal_adopt(actor=actor, proposal=proposal)}
    elif settings.HELIX_ADD_BUFFERED and getattr(actor, "pk", None):
        result = _accept(actor, domain, data.user_id, {"message": message, "extract": bool(extract), **options})
    else:
        result = memory_add_validated(actor=actor, data=data, domain=domain, extract=extract)
        contradiction_reviews_open(actor=actor, workspace=domain.workspace, add_result=result)
    result["pending_outcomes"] = outbox_deliver(actor=actor, before=started)
    return result


def pending_input_run(*, pending_id: str) -> None:
    """The worker's half: run the write as its creator. A retried task never writes twice: the row is
    claimed by a conditional update, and the write commits together with the outcome."""
    pending = _claim(uuid.UUID(pending_id))
    if pending is None:
        return
    try:
        with transaction.atomic():
            _write(pending)
    except Exception as exc:
        _fail(pending, code="internal_error", message=f"{exc.__class__.__name__}: {exc}")
        raise


def outbox_deliver(*, actor: Any, before: datetime) -> list[dict[str, Any]]:
    """Finished buffered writes of ``actor`` and notices addressed to them, from before ``before``; each once.

    An open contradiction review surfaces again every HELIX_NOTICE_RESURFACE_HOURS until it is settled.
    """
    if not getattr(actor, "pk", None):
        return []
    limit, now = settings.HELIX_PENDING_OUTCOMES_MAX, timezone.now()
    with transaction.atomic():
        pending = list(
            PendingInput.objects.undelivered_for(actor)
            .filter(finished_at__lt=before)
            .select_for_update(skip_locked=True)[:limit]
        )
        notices = list(
            Notice.objects.deliverable_to(actor, now=now)
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


# --- buffered writes -------------------------------------------------------------------------


def _accept(actor: Any, domain: WriteDomain, user_id: str, payload: dict[str, Any]) -> dict[str, Any]:
    occurred_at = payload.get("occurred_at")
    if isinstance(occurred_at, datetime):
        payload["occurred_at"] = occurred_at.isoformat()
    pending = PendingInput.objects.create(
        creator=actor, user_id=user_id, workspace=domain.workspace, rbac_scope=domain.scope, payload=payload
    )
    pending_id = str(pending.id)
    transaction.on_commit(
        lambda: async_task("memory.outbox.tasks.pending_input_run", pending_id, task_name=f"add {pending_id}")
    )
    return {"ok": True, "status": "accepted", "pending_id": pending_id}


def _write(pending: PendingInput) -> None:
    """Inside the task's transaction: the memories, their reviews and the outcome commit together."""
    try:
        result = memory_add(actor=pending.creator, **_add_arguments(pending))
    except ApplicationError as exc:  # refused or a provider down: nothing stored but the failed run, which is kept
        _fail(pending, code=exc.code, message=exc.message)
        return
    contradiction_reviews_open(actor=pending.creator, workspace=pending.workspace, add_result=result)
    _finish(pending, status=PendingInput.Status.DONE, result=result)


def _claim(pending_id: uuid.UUID) -> PendingInput | None:
    now = timezone.now()
    claimed = (
        PendingInput.objects.claimable(now=now)
        .filter(pk=pending_id)
        .update(status=PendingInput.Status.RUNNING, started_at=now, attempts=F("attempts") + 1)
    )
    if not claimed:
        return None
    return PendingInput.objects.select_related("creator", "workspace").get(pk=pending_id)


def _add_arguments(pending: PendingInput) -> dict[str, Any]:
    return {"user_id": pending.user_id, "group_id": pending.workspace_id, **pending.payload}


def _finish(
    pending: PendingInput, *, status: str, result: dict | None = None, code: str = "", message: str = ""
) -> None:
    pending.status, pending.result, pending.finished_at = status, result or {}, timezone.now()
    pending.error_code, pending.error_message = code, message[:4000]
    pending.save(update_fields=["status", "result", "finished_at", "error_code", "error_message"])


def _fail(pending: PendingInput, *, code: str, message: str) -> None:
    with transaction.atomic():
        _finish(pending, status=PendingInput.Status.FAILED, code=code, message=message)
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
                "message": f"A buffered add_memory failed ({code}); nothing was stored. Tell the operator.",
            },
        )


# --- delivery --------------------------------------------------------------------------------


def _still_readable(actor: Any, notices: list[Notice], now: datetime) -> list[Notice]:
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

"""The one way memories are added: ``memory_add``, immediate or buffered for the worker.

Every add answers bad input and refusals at once, buffered or not: the input was checked at
the door (``memory.ingest.request``), and access and the write domain are settled here
before anything is stored. Whatever the door, an add is the same: the exact call a rule
proposal names adopts the rule instead of storing a memory, and every CONTRADICTS edge it
writes opens a contradiction review (settled at once when a learned rule covers it).
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from helixsite.db import conflicts, replicas
from helixsite.errors import ApplicationError
from helixsite.task_broker import task_enqueue_after_commit
from memory.charter.selectors import RULE_METADATA_KEY, rule_proposal_matching
from memory.charter.services import contradiction_reviews_open, rule_proposal_adopt
from memory.ingest.conductor import Failure, ingest, ingest_many
from memory.ingest.exchange import Turn, conversation_before, turns_from_payload, turns_payload
from memory.ingest.extract import Conversation
from memory.ingest.request import AddRequest, conversation_parse
from memory.outbox.models import PendingInput
from memory.outbox.services import (
    outbox_deliver,
    pending_input_claim,
    pending_input_create,
    pending_input_fail,
    pending_input_finish,
    pending_inputs_requeue_take,
)
from rbac.policy import WriteDomain, write_domain_resolve

RUN_TASK = "memory.tasks.pending_input_run"

_NOTHING_STORED: dict[str, list[Any]] = {
    "memory_ids": [],
    "updated": [],
    "deduped": [],
    "skipped": [],
    "needs_clarification": [],
}


def memory_add(
    *,
    actor: User,
    user_id: str,
    message: str,
    group_id: str | int | None = None,
    agent_id: str = "",
    metadata: dict[str, Any] | None = None,
    occurred_at: datetime | None = None,
    conversation: Conversation | None = None,
    extract: bool = True,
    expires_at: datetime | None = None,
    source: str | None = None,
    memory_type: str | None = None,
    buffered: bool = False,
    deliver_outcomes: bool = False,
) -> dict[str, Any]:
    """Turn a message into memories: extract → embed → candidates → decide → apply → (enrich).

    ``buffered``: answer ``accepted`` with a ``pending_id`` and let the worker write.
    ``deliver_outcomes``: earlier outcomes and notices for the caller ride along as
    ``pending_outcomes`` (the add_memory tool's answer). ``source`` and ``memory_type`` are for
    writers inside the server; agents' calls leave them unset.
    """
    started = timezone.now()
    request = AddRequest(
        user_id=user_id,
        message=message,
        metadata=metadata or {},
        occurred_at=occurred_at,
        agent_id=agent_id,
        conversation=conversation or Conversation(),
        extract=extract,
        expires_at=expires_at,
        source=source,
        memory_type=memory_type,
    )
    domain = write_domain_resolve(actor=actor, group_id=group_id)
    proposal = rule_proposal_matching(user_id=user_id, domain=domain, message=message, metadata=request.metadata)
    if proposal is not None:
        result = {"ok": True, **_NOTHING_STORED, **rule_proposal_adopt(actor=actor, proposal=proposal)}
    elif buffered and getattr(actor, "pk", None):
        result = _accept(actor, request, domain)
    else:
        result = _write(actor, request, domain)
    if deliver_outcomes:
        result["pending_outcomes"] = outbox_deliver(actor=actor, before=started)
    return result


def memory_add_conversation(
    *,
    actor: User,
    user_id: str,
    messages: list[Turn],
    group_id: str | int | None = None,
    agent_id: str = "",
    conversation: Conversation | None = None,
    extract: bool = True,
    expires_at: datetime | None = None,
    buffered: bool = False,
    deliver_outcomes: bool = False,
) -> dict[str, Any]:
    """Add an exchange (add_conversation): each message in order as its speaker's turn, with the
    earlier ones of its session as its context, the atoms of all embedded in one batch. Answers
    ``results``, one add_memory answer per message, in order.

    Each message is written whole or not at all, and in order: when one fails, the ones before it
    stand and the ones after it are not written; the error names its index and carries the
    answers of those written (``written``). The same call again writes nothing twice.
    ``buffered``: the whole exchange is one write for the worker (``pending_id``)."""
    started = timezone.now()
    domain = write_domain_resolve(actor=actor, group_id=group_id)
    if buffered and getattr(actor, "pk", None):
        payload = {
            "messages": turns_payload(messages),
            "agent_id": agent_id,
            "context": asdict(conversation or Conversation()),
            "extract": extract,
            "expires_at": expires_at.isoformat() if expires_at else None,
        }
        pending = pending_input_create(actor=actor, domain=domain, user_id=user_id, payload=payload)
        _enqueue(str(pending.id))
        result: dict[str, Any] = {"ok": True, "status": "accepted", "pending_id": str(pending.id)}
    else:
        requests = _requests(user_id, messages, agent_id, conversation or Conversation(), extract, expires_at)
        answers, failure = _write_many(actor, requests, domain)
        if failure is not None:
            raise _failure_error(failure, answers)
        result = {"ok": True, "results": answers}
    if deliver_outcomes:
        result["pending_outcomes"] = outbox_deliver(actor=actor, before=started)
    return result


def _requests(
    user_id: str,
    messages: list[Turn],
    agent_id: str,
    conversation: Conversation,
    extract: bool,
    expires_at: datetime | None,
) -> list[AddRequest]:
    return [
        AddRequest(
            user_id=user_id,
            message=turn.message,
            metadata=turn.metadata,
            occurred_at=turn.occurred_at,
            agent_id=agent_id,
            conversation=conversation_before(messages, index, conversation),
            extract=extract,
            expires_at=expires_at,
        )
        for index, turn in enumerate(messages)
    ]


def _write_many(
    actor: User, requests: list[AddRequest], domain: WriteDomain
) -> tuple[list[dict[str, Any]], Failure | None]:
    """The messages in order; a message that is a rule proposal's exact call adopts it, as add_memory would."""
    answers: list[dict[str, Any]] = []
    start = 0
    while start < len(requests):
        request = requests[start]
        proposal = rule_proposal_matching(
            user_id=request.user_id, domain=domain, message=request.message, metadata=request.metadata
        )
        if proposal is not None:
            answers.append({"ok": True, **_NOTHING_STORED, **rule_proposal_adopt(actor=actor, proposal=proposal)})
            start += 1
            continue
        end = start + 1
        while end < len(requests) and not _may_propose(requests[end]):
            end += 1
        found, failure = ingest_many(actor=actor, requests=requests[start:end], domain=domain)
        for answer in found:
            contradiction_reviews_open(actor=actor, workspace=domain.workspace, add_result=answer)
        answers += found
        if failure is not None:
            return answers, Failure(start + failure.index, failure.error)
        start = end
    return answers, None


def _may_propose(request: AddRequest) -> bool:
    """Whether the message may be a rule proposal's call (checked one by one); most are not."""
    return RULE_METADATA_KEY in request.metadata


def _failure_error(failure: Failure, written: list[dict[str, Any]]) -> Exception:
    """The error a failed message answers: its index, and the answers of the messages before it."""
    error = failure.error
    if not isinstance(error, ApplicationError):
        return error  # a failure of ours: answered 500 with an incident id; those before it stand
    where = f"messages[{failure.index}]"
    return ApplicationError(
        f"{where}: {error.message}",
        code=error.code,
        status=error.status,
        field=error.field if error.field and error.field.startswith("messages") else where,
        details={**error.details, "index": failure.index, "written": written},
    )


def pending_add_run(*, pending_id: str) -> None:
    """The worker's half of a buffered add: run the write as its creator, whose access is checked
    again. The memories, their reviews and the outcome commit together; a claimed row is never
    written twice. A transaction PostgreSQL ends in a deadlock (helixsite.db.conflicts) is undone
    whole and run again at once, up to four attempts."""
    pending = pending_input_claim(pending_id=uuid.UUID(pending_id))
    if pending is None:
        return
    try:
        conflicts.run_again_on_deadlock(lambda: _write_pending_atomically(pending), what=f"Buffered write {pending.id}")
    except Exception as exc:
        pending_input_fail(pending=pending, code="internal_error", message=f"{exc.__class__.__name__}: {exc}")
        raise
    replicas.wrote(pending.creator_id)  # its creator's reads now wait for a replica to have it


def pending_adds_requeue(*, before: datetime, limit: int) -> list[str]:
    """Queue again up to ``limit`` buffered writes still queued though last handed to the worker's
    queue before ``before``: their task never reached it (Redis was away when the write was
    accepted) or was lost with it (a Redis restarted without persistence). At least once is
    enough: the worker claims a write with a conditional update, so a second task for it does
    nothing. The ids queued again."""
    pending_ids = pending_inputs_requeue_take(before=before, limit=limit)
    for pending_id in pending_ids:
        _enqueue(pending_id)
    return pending_ids


def _write(actor: User, request: AddRequest, domain: WriteDomain) -> dict[str, Any]:
    result = ingest(actor=actor, request=request, domain=domain)
    contradiction_reviews_open(actor=actor, workspace=domain.workspace, add_result=result)
    return result


def _accept(actor: User, request: AddRequest, domain: WriteDomain) -> dict[str, Any]:
    """The write is accepted once its PendingInput is committed: that row, not its task, is what
    ``accepted`` promises. So a task queue out of reach (Redis, HELIX_QUEUE_URL) does not refuse
    the add (a 503 after the commit would be untrue, and a client retrying it would write twice):
    the task is not queued, the answer is ``accepted`` all the same, ``get_add_status`` says
    ``queued``, and ``pending_adds_requeue`` queues the write once the queue is back."""
    pending = pending_input_create(actor=actor, domain=domain, user_id=request.user_id, payload=request.as_payload())
    _enqueue(str(pending.id))
    return {"ok": True, "status": "accepted", "pending_id": str(pending.id)}


def _enqueue(pending_id: str) -> None:
    task_enqueue_after_commit(RUN_TASK, pending_id, task_name=f"add {pending_id}")


def _write_pending_atomically(pending: PendingInput) -> None:
    with transaction.atomic():
        _write_pending(pending)


def _write_pending(pending: PendingInput) -> None:
    if "messages" in pending.payload:
        _write_pending_conversation(pending)
        return
    try:
        request = AddRequest.from_payload(user_id=pending.user_id, payload=pending.payload)
        domain = write_domain_resolve(actor=pending.creator, group_id=pending.workspace_id)
        result = ingest(actor=pending.creator, request=request, domain=domain)
    except ApplicationError as exc:  # refused or a provider down: nothing stored but the failed run, which is kept
        pending_input_fail(pending=pending, code=exc.code, message=exc.message)
        return
    contradiction_reviews_open(actor=pending.creator, workspace=domain.workspace, add_result=result)
    pending_input_finish(pending=pending, result=result)


def _write_pending_conversation(pending: PendingInput) -> None:
    """A buffered add_conversation: its messages in order, as the call would have written them."""
    payload = pending.payload
    try:
        messages = turns_from_payload(payload["messages"])
        domain = write_domain_resolve(actor=pending.creator, group_id=pending.workspace_id)
    except ApplicationError as exc:
        pending_input_fail(pending=pending, code=exc.code, message=exc.message)
        return
    requests = _requests(
        pending.user_id,
        messages,
        payload.get("agent_id") or "",
        conversation_parse(payload.get("context")),
        bool(payload.get("extract", True)),
        datetime.fromisoformat(payload["expires_at"]) if payload.get("expires_at") else None,
    )
    answers, failure = _write_many(pending.creator, requests, domain)
    if failure is None:
        pending_input_finish(pending=pending, result={"ok": True, "results": answers})
        return
    error = _failure_error(failure, answers)
    if not isinstance(error, ApplicationError):
        raise error
    pending_input_fail(
        pending=pending, code=error.code, message=error.message, result={"ok": False, "written": answers}
    )

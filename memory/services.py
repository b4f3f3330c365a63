"""Writes in the memory domain."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django_q.tasks import async_task

from helixsite.errors import ApplicationError, Conflict, Forbidden, InvalidInput, NotFound
from memory.ingest import english
from memory.ingest.apply import Outcome, WriteRequest, apply
from memory.ingest.atoms import content_key
from memory.ingest.candidates import load_candidates
from memory.ingest.decide import decide
from memory.ingest.extract import Conversation, extract
from memory.ingest.runlog import RunLog
from memory.models import (
    Edge,
    EdgeType,
    EmbeddingSpace,
    HistoryAction,
    Memory,
    MemoryHistory,
    MemorySource,
    MemoryType,
)
from memory.providers import ProviderError, get_embedder, get_llm
from memory.providers.llm import CallBudget
from memory.selectors import embedding_space_mismatch, memory_get_for_actor
from rbac.models import Workspace
from rbac.policy import Action, WriteDomain, authorize, is_global_admin, write_domain_resolve


@dataclass(frozen=True)
class AddInput:
    user_id: str
    message: str
    metadata: dict
    occurred_at: datetime | None
    agent_id: str
    conversation: Conversation


def memory_add(
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
    source: str | None = None,
    memory_type: str | None = None,
) -> dict[str, Any]:
    """Turn a message into memories: extract → embed → candidates → decide → apply → (enrich).

    Bad input and refusals raise before anything is written; a provider failure writes
    nothing but the failed run; a repeated identical call creates nothing new.
    ``source`` and ``memory_type`` are for writers inside the server (FastThink commits a
    conclusion as source ``think``, type ``conclusion``); agents' calls leave them unset.
    """
    _check_origin(source, memory_type)
    data, domain = memory_add_validate(
        actor=actor, user_id=user_id, message=message, group_id=group_id, agent_id=agent_id, metadata=metadata,
        occurred_at=occurred_at, context=context,
    )  # fmt: skip
    return memory_add_validated(
        actor=actor, data=data, domain=domain, extract=extract, source=source, memory_type=memory_type
    )


def memory_add_validated(
    *,
    actor: Any,
    data: AddInput,
    domain: WriteDomain,
    extract: bool = True,
    source: str | None = None,
    memory_type: str | None = None,
) -> dict[str, Any]:
    """memory_add for input memory_add_validate has already checked and placed in its domain."""
    source = source or (MemorySource.EXTRACTION if extract else MemorySource.RAW_INPUT)
    run = RunLog.start(
        actor=actor, user_id=data.user_id, rbac_scope=domain.scope, workspace=domain.workspace, message=data.message,
        message_hash=hashlib.sha256(data.message.encode()).hexdigest(),
    )  # fmt: skip
    budget = CallBudget(settings.HELIX_LLM_CALLS_PER_MESSAGE)
    try:
        result = _pipeline(
            run, data, domain, actor, budget, verbatim=not extract, source=source, memory_type=memory_type
        )
    except ProviderError as exc:
        run.finish(error_code=exc.code, error=str(exc), llm_calls=budget.used)
        raise ApplicationError(str(exc), code=exc.code, status=503) from exc
    except ApplicationError as exc:
        run.finish(error_code=exc.code, error=exc.message, llm_calls=budget.used)
        raise
    except Exception as exc:
        run.finish(error_code="internal_error", error=f"{exc.__class__.__name__}: {exc}", llm_calls=budget.used)
        raise
    run.finish(result=result["_log"], llm_calls=budget.used)
    if result["memory_ids"] or result["updated"]:
        run_id = str(run.id)
        transaction.on_commit(lambda: async_task("memory.tasks.memory_enrich", run_id, task_name=f"enrich {run_id}"))
    return {key: value for key, value in result.items() if key != "_log"}


def _check_origin(source: str | None, memory_type: str | None) -> None:
    if source is not None and source not in MemorySource.values:
        raise InvalidInput(f"source must be one of: {', '.join(MemorySource.values)}.", field="source")
    if memory_type is not None and memory_type not in MemoryType.values:
        raise InvalidInput(f"memory_type must be one of: {', '.join(MemoryType.values)}.", field="memory_type")


def memory_add_validate(
    *,
    actor: Any,
    user_id: str,
    message: str,
    group_id: str | int | None = None,
    agent_id: str = "",
    metadata: Any = None,
    occurred_at: datetime | str | None = None,
    context: Any = None,
) -> tuple[AddInput, WriteDomain]:
    """Everything memory_add refuses, refused without writing: bad input, then access and the write domain.

    For callers that answer before the write happens (buffered writes)."""
    data = _validated(user_id, message, metadata, occurred_at, agent_id, context)
    return data, write_domain_resolve(actor=actor, group_id=group_id)


def _pipeline(run: RunLog, data: AddInput, domain, actor, budget: CallBudget, *, verbatim: bool, source: str,  # noqa: ANN001
              memory_type: str | None) -> dict:  # fmt: skip
    now = timezone.now()
    with run.stage("extract") as log:
        extraction = extract(
            message=data.message, subject=data.user_id, conversation=data.conversation, now=data.occurred_at or now,
            verbatim=verbatim, max_atoms=settings.HELIX_MAX_FACTS_PER_CALL, llm=get_llm(), budget=budget, run_id=run.id,
        )  # fmt: skip
        atoms = extraction.atoms
        if memory_type:
            for atom in atoms:
                atom.memory_type = memory_type
        log.update(
            method=extraction.method,
            atoms=[a.content for a in atoms],
            dropped=extraction.dropped,
            problem=extraction.problem,
        )
    keys = [content_key(scope=domain.scope, memory_type=a.memory_type, content=a.content) for a in atoms]
    with run.stage("embed") as log:
        vectors = get_embedder().embed([a.content for a in atoms], purpose="ingest")
        log["count"] = len(atoms)
    with run.stage("candidates") as log:
        candidates = load_candidates(atoms=atoms, vectors=vectors, keys=keys, scope=domain.scope, user_id=data.user_id)
        log["candidates"] = [
            [{"id": str(c.memory.id), "cosine": c.cosine, "via": sorted(c.via)} for c in found] for found in candidates
        ]
    with run.stage("decide") as log:
        decisions = decide(atoms=atoms, candidates=candidates, keys=keys, llm=get_llm(), budget=budget, run_id=run.id)
        log["decisions"] = [d.as_log() for d in decisions]
    with run.stage("apply") as log:
        outcome = apply(
            WriteRequest(
                atoms=atoms, decisions=decisions, vectors=vectors, keys=keys, domain=domain, author=actor,
                user_id=data.user_id, agent_id=data.agent_id, metadata=data.metadata,
                valid_from=data.occurred_at or now,
                source=source, run_id=run.id,
            )
        )  # fmt: skip
        log["holders"] = outcome.holders
    return _result(run, extraction.dropped, atoms, decisions, outcome, domain)


def _result(run: RunLog, dropped, atoms, decisions, outcome: Outcome, domain) -> dict:  # noqa: ANN001
    result = {
        "ok": True,
        "memory_ids": outcome.memory_ids,
        "updated": outcome.updated,
        "deduped": list(dict.fromkeys(outcome.deduped)),
        "skipped": [{"text": text, "reason": "not a statement to remember"} for text in dropped],
        "superseded": outcome.superseded,
        "contradicted": outcome.contradicted,
        "needs_clarification": outcome.needs_clarification,
        "decisions": [
            {"atom": atom.content, "type": atom.memory_type, "op": d.op.value, "memory_id": outcome.holders.get(i),
             "target_id": str(d.target.memory.id) if d.target else None, "confidence": d.confidence, "reason": d.reason}
            for i, (atom, d) in enumerate(zip(atoms, decisions, strict=True))
        ],
        "run_id": str(run.id),
    }  # fmt: skip
    links = [[i, j, kind] for i, atom in enumerate(atoms) for j, kind in atom.links]
    result["_log"] = {
        **{k: v for k, v in result.items() if k in ("memory_ids", "updated", "deduped", "superseded", "contradicted")},
        "holders": {str(k): v for k, v in outcome.holders.items()},
        "links": links,
        "domain": {
            "scope": domain.scope,
            "workspace_id": domain.workspace.id,
            "federation_id": domain.federation.id if domain.federation else None,
            "visible_workspace_ids": list(domain.visible_workspace_ids),
        },
    }
    return result


def _validated(user_id, message, metadata, occurred_at, agent_id, context) -> AddInput:  # noqa: ANN001
    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > 200:
        raise InvalidInput("user_id must be a non-empty string of at most 200 characters.", field="user_id")
    if not isinstance(message, str) or not message.strip():
        raise InvalidInput("message must not be empty.", code="empty_message", field="message")
    if len(message.encode()) > settings.HELIX_MAX_MESSAGE_BYTES:
        raise InvalidInput(
            f"message is larger than {settings.HELIX_MAX_MESSAGE_BYTES} bytes.",
            code="message_too_large",
            field="message",
        )
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise InvalidInput("metadata must be a JSON object.", field="metadata")
    try:
        size = len(json.dumps(metadata).encode())
    except (TypeError, ValueError):
        raise InvalidInput("metadata must be a JSON object.", field="metadata") from None
    if size > settings.HELIX_MAX_METADATA_BYTES:
        raise InvalidInput(
            f"metadata is larger than {settings.HELIX_MAX_METADATA_BYTES} bytes.",
            code="metadata_too_large",
            field="metadata",
        )
    if not isinstance(agent_id, str) or len(agent_id) > 200:
        raise InvalidInput("agent_id must be a string of at most 200 characters.", field="agent_id")
    return AddInput(
        user_id=user_id.strip(), message=message.strip(), metadata=metadata, occurred_at=_event_time(occurred_at),
        agent_id=agent_id, conversation=_conversation(context),
    )  # fmt: skip


def _event_time(value: datetime | str | None) -> datetime | None:
    if value is None or value == "":
        return None
    parsed = value if isinstance(value, datetime) else parse_datetime(str(value))
    if parsed is None and isinstance(value, str) and len(value) == 10:
        parsed = parse_datetime(f"{value}T00:00:00")
    if parsed is None:
        raise InvalidInput("occurred_at must be an RFC 3339 date-time or YYYY-MM-DD.", field="occurred_at")
    return parsed if timezone.is_aware(parsed) else parsed.replace(tzinfo=UTC)


def _conversation(context: Any) -> Conversation:
    if context in (None, "", [], {}):
        return Conversation()
    if isinstance(context, str):
        return Conversation(previous_assistant=context[:4000])
    turns = context.get("turns", []) if isinstance(context, dict) else context
    if not isinstance(turns, list) or not all(isinstance(t, dict) and isinstance(t.get("content"), str) for t in turns):
        raise InvalidInput("context.turns must be a list of {role, content} objects.", field="context")
    turns = [{"role": str(t.get("role", "user"))[:20], "content": t["content"][:4000]} for t in turns[-20:]]
    previous = context.get("previous_assistant") if isinstance(context, dict) else None
    if previous is None:
        previous = next((t["content"] for t in reversed(turns) if t["role"] == "assistant"), "")
    if not isinstance(previous, str):
        raise InvalidInput("context.previous_assistant must be a string.", field="context")
    return Conversation(previous_assistant=previous[:4000], turns=turns)


def memory_update(*, actor: Any, memory_id: Any, content: str, reason: str = "", user_id: str | None = None) -> Memory:
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
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content must not be empty.", field="content")
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
        MemoryHistory.objects.create(
            memory=locked, action=HistoryAction.CORRECT, old_content=locked.content, new_content=content,
            actor=actor if getattr(actor, "pk", None) else None, reason=reason[:500],
        )  # fmt: skip
        attribute = english.find_attribute(content, locked.user_id)
        locked.facets = {
            "negated": english.is_negated(content),
            **({"attribute": attribute.as_list()} if attribute else {}),
        }
        locked.content, locked.content_key, locked.embedding, locked.updated_at = content, key, vector, timezone.now()
        locked.save(update_fields=["content", "content_key", "embedding", "facets", "updated_at"])
    return locked


def memory_forget(*, actor: Any, memory_id: Any, reason: str = "") -> Memory:
    """Soft-delete a memory: it leaves every read path, its row and history stay, and a
    global admin can restore it. The author (with write access), a moderator or an admin."""
    memory = memory_get_for_actor(actor=actor, memory_id=memory_id)
    _authorize_correction(actor, memory)
    with transaction.atomic():
        locked = Memory.objects.select_for_update().get(pk=memory.pk)
        locked.deleted_at = locked.updated_at = timezone.now()
        locked.save(update_fields=["deleted_at", "updated_at"])
        _history(locked, HistoryAction.FORGET, actor, reason)
    return locked


def memory_restore(*, actor: Any, memory_id: Any, reason: str = "") -> Memory:
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
    return locked


def _history(memory: Memory, action: str, actor: Any, reason: str) -> None:
    MemoryHistory.objects.create(
        memory=memory, action=action, old_content=memory.content, new_content=memory.content,
        actor=actor if getattr(actor, "pk", None) else None, reason=(reason or "")[:500],
    )  # fmt: skip


def _uuid_or_404(value: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise NotFound("No forgotten memory with this id.", field="memory_id") from None


def _authorize_correction(actor: Any, memory: Memory) -> None:
    if is_global_admin(actor):
        return
    action = Action.WRITE if memory.author_id == getattr(actor, "pk", None) else Action.MODERATE
    for workspace in Workspace.objects.filter(pk__in=memory.visible_in):
        try:
            authorize(actor=actor, action=action, workspace=workspace)
            return
        except ApplicationError:
            continue
    raise Forbidden(
        "Only the author (with write access) or a moderator of its workspace may correct this memory.",
        details={"action": "correct"},
    )


def _embed_or_fail(texts: list[str]):  # noqa: ANN202 - numpy array
    try:
        return get_embedder().embed(texts, purpose="correct")
    except ProviderError as exc:
        raise ApplicationError(str(exc), code=exc.code, status=503) from exc


def memory_supersede(
    *, actor: Any, memory: Memory, successor: Memory, reason: str, details: dict | None = None
) -> bool:
    """``successor`` replaces ``memory``: valid_to, a SUPERSEDES edge and a history row; nothing is deleted.

    The caller has authorized the change. Returns False when ``memory`` was no longer current.
    """
    author = actor if getattr(actor, "pk", None) else None
    with transaction.atomic():
        locked = Memory.objects.current().select_for_update().filter(pk=memory.pk).first()
        if locked is None:
            return False
        locked.valid_to = locked.updated_at = timezone.now()
        locked.save(update_fields=["valid_to", "updated_at"])
        MemoryHistory.objects.create(
            memory=locked, action=HistoryAction.SUPERSEDE, old_content=locked.content, new_content=successor.content,
            details={"superseded_by": str(successor.id), **(details or {})}, actor=author, reason=reason[:500],
        )  # fmt: skip
        Edge.objects.bulk_create(
            [
                Edge(
                    source=successor,
                    target=locked,
                    edge_type=EdgeType.SUPERSEDES,
                    reason=reason[:500],
                    created_by=author,
                )
            ],
            ignore_conflicts=True,
        )
    return True


def edge_retype(*, actor: Any, source: Memory, target: Memory, old_type: str, new_type: str, reason: str) -> None:
    """Relabel the live ``old_type`` edge source → target as ``new_type``: the old edge is expired, not deleted."""
    author = actor if getattr(actor, "pk", None) else None
    with transaction.atomic():
        Edge.objects.live().filter(source=source, target=target, edge_type=old_type).update(expired_at=timezone.now())
        Edge.objects.bulk_create(
            [Edge(source=source, target=target, edge_type=new_type, reason=reason[:500], created_by=author)],
            ignore_conflicts=True,
        )


def embedding_space_ensure() -> EmbeddingSpace:
    """Record the configured embedding space on first start; refuse a different one later."""
    with transaction.atomic():
        space, _ = EmbeddingSpace.objects.select_for_update().get_or_create(
            pk=1,
            defaults={
                "provider": settings.HELIX_EMBEDDINGS,
                "model": settings.HELIX_EMBEDDING_MODEL,
                "dimension": settings.HELIX_EMBEDDING_DIM,
            },
        )
    problem = embedding_space_mismatch(space)
    if problem:
        raise ImproperlyConfigured(problem)
    return space

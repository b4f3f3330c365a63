"""Writes of FastThink: the session lifecycle think_start → think_add / think_recall →
think_conclude → think_commit or think_discard, and the sweep.

Every call on a session locks its row first, so concurrent calls (on any worker) take
turns and thought indices never repeat. A call that finds the session past its wall
clock or thought budget marks it timed out, commits that mark, and fails with
``session_timed_out``: nothing is written on the actor's behalf, the scratchpad waits for
an explicit discard.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from helixsite.errors import Conflict, InvalidInput, NotFound
from memory.fastthink import inputs
from memory.fastthink.models import (
    RUNNING,
    UNFINISHED,
    SessionState,
    ThinkSession,
    Thought,
    ThoughtType,
    TimeoutReason,
)
from memory.fastthink.results import session_result, thought_result
from memory.models import Edge, EdgeType, Memory, MemorySource, MemoryType
from memory.search.conductor import memory_search
from memory.services.add import memory_add
from rbac.actors import Actor

T = TypeVar("T")


def think_start(*, actor: Actor, session_id: str, initial_thought: str) -> dict[str, Any]:
    """A new session in state thinking, with ``initial_thought`` as thought 0 (reasoning)."""
    principal = inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    content = inputs.text(initial_thought, field="initial_thought")
    now = timezone.now()
    with transaction.atomic():
        _lock_actor(actor)
        _require_room_for(actor, name)
        session = ThinkSession.objects.create(
            actor=principal,
            session_id=name,
            max_thoughts=settings.HELIX_THINK_MAX_THOUGHTS,
            max_seconds=settings.HELIX_THINK_MAX_SECONDS,
            started_at=now,
            updated_at=now,
            deadline_at=now + timedelta(seconds=settings.HELIX_THINK_MAX_SECONDS),
        )
        thought = _append(session, [_Draft(ThoughtType.REASONING, content)], now)[0]
    return {"ok": True, "session": session_result(session, now), "thought": thought_result(thought)}


def think_add(
    *, actor: Actor, session_id: str, content: str, thought_type: str = "reasoning", parent_idx: int | None = None
) -> dict[str, Any]:
    """One more thought, with the next index, optionally the child of an earlier one."""
    inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    text = inputs.text(content, field="content")
    kind = inputs.thought_type(thought_type)
    parent = parent_idx

    def add(session: ThinkSession, now: datetime) -> Thought:
        _require_thought(session, parent, field="parent_idx")
        return _append(session, [_Draft(kind, text, parent)], now)[0]

    session, thought, now = _turn(actor=actor, name=name, states=(SessionState.THINKING,), adding=1, work=add)
    return {"ok": True, "session": session_result(session, now), "thought": thought_result(thought)}


def think_recall(
    *,
    actor: Actor,
    session_id: str,
    query: str,
    parent_idx: int,
    user_id: str | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    """Pull the actor's authorized memories into the session, read-only, as observation
    thoughts under ``parent_idx`` that hold the memory id (the evidence).

    With ``user_id``, a personal search of that owner's memories; without, every memory the
    actor may read (scope ``all``: visibility is never widened). Superseded memories and
    memories the session already holds are not added again.
    """
    inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    inputs.query(query)
    parent = parent_idx
    owner = inputs.owner(user_id, required=False)
    wanted = settings.HELIX_THINK_RECALL_LIMIT if limit is None else limit

    def room(session: ThinkSession, now: datetime) -> int:
        _require_thought(session, parent, field="parent_idx")
        return session.max_thoughts - session.thought_count

    _, free, _ = _turn(actor=actor, name=name, states=(SessionState.THINKING,), adding=1, work=room)
    found = memory_search(
        actor=actor,
        query=query,
        user_id=owner,
        scope="personal" if owner else "all",
        limit=min(wanted, free),
        reinforce=False,
    )
    results = [r for r in found["results"] if not r["superseded"]][:free]

    def store(session: ThinkSession, now: datetime) -> tuple[list[Thought], list[Thought]]:
        return _store_evidence(session, parent, results, owner, now)

    session, (added, known), now = _turn(
        actor=actor, name=name, states=(SessionState.THINKING,), adding=len(results), work=store
    )
    scores = {r["id"]: r["score"] for r in results}
    return {
        "ok": True,
        "session": session_result(session, now),
        "recalled": [{**thought_result(t), "score": scores.get(str(t.memory_id))} for t in added],
        "count": len(added),
        "already_recalled": [{"idx": t.idx, "memory_id": str(t.memory_id)} for t in known],
    }


def think_conclude(
    *, actor: Actor, session_id: str, conclusion: str, supporting_idx: Sequence[int] = ()
) -> dict[str, Any]:
    """Add the conclusion, mark the thoughts it rests on as supporting; the session is decided."""
    inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    text = inputs.text(conclusion, field="conclusion")
    cited = sorted(set(supporting_idx))

    def conclude(session: ThinkSession, now: datetime) -> Thought:
        for idx in cited:
            _require_thought(session, idx, field="supporting_idx")
        Thought.objects.filter(session=session, idx__in=cited).update(supporting=True)
        thought = _append(session, [_Draft(ThoughtType.CONCLUSION, text)], now)[0]
        session.state = SessionState.DECIDED
        session.save(update_fields=["state"])
        return thought

    session, thought, now = _turn(actor=actor, name=name, states=(SessionState.THINKING,), adding=1, work=conclude)
    return {
        "ok": True,
        "session": session_result(session, now),
        "conclusion": thought_result(thought),
        "supporting_idx": cited,
    }


def think_commit(*, actor: Actor, session_id: str, user_id: str, group_id: str | int | None = None) -> dict[str, Any]:
    """Write the conclusion, and only it, through memory_add (same write-domain rules), as
    a ``conclusion`` memory from source ``think``; every recalled memory the conclusion cites
    as supporting gets a SUPPORTS edge to it. A refused write leaves the session decided."""
    principal = inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    owner = inputs.owner(user_id, required=True)
    _, decided, _ = _turn(actor=actor, name=name, states=(SessionState.DECIDED,), adding=0, work=_decided)
    result = memory_add(
        actor=principal,
        user_id=owner,
        message=decided.conclusion,
        group_id=group_id,
        extract=False,
        source=MemorySource.THINK,
        memory_type=MemoryType.CONCLUSION,
    )
    memory_id = next((d["memory_id"] for d in result["decisions"] if d["memory_id"]), None)
    now = timezone.now()
    with transaction.atomic():
        session = ThinkSession.objects.select_for_update().get(pk=decided.pk)
        supported_by = _supports(principal, decided, memory_id, result["run_id"])
        session.state, session.ended_at, session.updated_at, session.user_id = SessionState.COMMITTED, now, now, owner
        session.committed_memory_id, session.commit_run_id = memory_id, uuid.UUID(result["run_id"])
        session.save(update_fields=["state", "ended_at", "updated_at", "user_id", "committed_memory", "commit_run_id"])
    return {**result, "memory_id": memory_id, "supported_by": supported_by, "session": session_result(session, now)}


def think_discard(*, actor: Actor, session_id: str) -> dict[str, Any]:
    """Throw the session away, whatever its state short of committed, timed out included."""
    inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    now = timezone.now()
    with transaction.atomic():
        session = _locked(actor, name)
        if session.state not in UNFINISHED:
            raise _wrong_state(session, UNFINISHED)
        session.state, session.ended_at, session.updated_at = SessionState.DISCARDED, now, now
        session.save(update_fields=["state", "ended_at", "updated_at"])
    return {"ok": True, "session": session_result(session, now)}


def think_sessions_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Mark running sessions past their deadline timed out; delete sessions that ended
    (timed out, committed, discarded) more than the retention window ago. Idempotent."""
    now = now or timezone.now()
    timed_out = ThinkSession.objects.past_deadline(now).update(
        state=SessionState.TIMED_OUT, timed_out_reason=TimeoutReason.WALL_CLOCK, ended_at=now, updated_at=now
    )
    horizon = now - timedelta(hours=settings.HELIX_THINK_RETENTION_HOURS)
    _, deleted = ThinkSession.objects.ended_before(horizon).delete()
    return {"timed_out": timed_out, "deleted": deleted.get(ThinkSession._meta.label, 0)}


# --- one turn on a session ---------------------------------------------------------------


def _turn(
    *, actor: Actor, name: str, states: Sequence[str], adding: int, work: Callable[[ThinkSession, datetime], T]
) -> tuple[ThinkSession, T, datetime]:
    """Lock the session, enforce its limits and state, run ``work`` in the same transaction.

    Past a limit the timed-out mark is committed before the error is raised, so the next
    call, the status and the sweep all see it.
    """
    with transaction.atomic():
        session = _locked(actor, name)
        now = timezone.now()
        reason = _limit_passed(session, adding, now)
        if reason is None:
            if session.state not in states:
                raise _wrong_state(session, states)
            return session, work(session, now), now
        _time_out(session, reason, now)
    raise Conflict(
        f"Think session {name} passed its {'wall clock' if reason == TimeoutReason.WALL_CLOCK else 'thought'} "
        "limit; discard it (think_discard) and start again.",
        code="session_timed_out",
        field="session_id",
        details={"reason": str(reason)},
    )


def _locked(actor: Actor, name: str) -> ThinkSession:
    """The access gate: the actor's newest session of that name. Another actor's is not found."""
    session = (
        ThinkSession.objects.select_for_update()
        .owned_by(actor)
        .filter(session_id=name)
        .order_by("-started_at", "-id")
        .first()
    )
    if session is None:
        raise NotFound("Think session not found.", field="session_id")
    return session


def _limit_passed(session: ThinkSession, adding: int, now: datetime) -> str | None:
    if session.state == SessionState.TIMED_OUT:
        return session.timed_out_reason or TimeoutReason.WALL_CLOCK
    if session.state not in RUNNING:
        return None
    if now >= session.deadline_at:
        return TimeoutReason.WALL_CLOCK
    if session.thought_count + adding > session.max_thoughts:
        return TimeoutReason.THOUGHT_COUNT
    return None


def _time_out(session: ThinkSession, reason: str, now: datetime) -> None:
    if session.state == SessionState.TIMED_OUT:
        return
    session.state, session.timed_out_reason, session.ended_at, session.updated_at = (
        SessionState.TIMED_OUT,
        reason,
        now,
        now,
    )
    session.save(update_fields=["state", "timed_out_reason", "ended_at", "updated_at"])


def _wrong_state(session: ThinkSession, expected: Sequence[str]) -> Conflict:
    return Conflict(
        f"Think session {session.session_id} is {session.state}; this call needs it to be {' or '.join(expected)}.",
        code="invalid_state",
        field="session_id",
        details={"state": session.state, "expected": [str(s) for s in expected]},
    )


@dataclass(frozen=True)
class _Draft:
    thought_type: str
    content: str
    parent_idx: int | None = None
    memory_id: Any = None


def _append(session: ThinkSession, drafts: list[_Draft], now: datetime) -> list[Thought]:
    """Number the new thoughts after the last one; the caller holds the session's lock."""
    first = session.thought_count
    thoughts = Thought.objects.bulk_create(
        [
            Thought(
                session=session,
                idx=first + n,
                thought_type=d.thought_type,
                content=d.content,
                parent_idx=d.parent_idx,
                memory_id=d.memory_id,
                created_at=now,
            )
            for n, d in enumerate(drafts)
        ]
    )
    session.thought_count, session.updated_at = first + len(drafts), now
    session.save(update_fields=["thought_count", "updated_at"])
    return thoughts


def _store_evidence(
    session: ThinkSession, parent: int, results: list[dict], owner: str | None, now: datetime
) -> tuple[list[Thought], list[Thought]]:
    held = {str(t.memory_id): t for t in session.thoughts.filter(memory__isnull=False)}
    fresh = [r for r in results if r["id"] not in held]
    limit = settings.HELIX_THINK_MAX_CHARS
    drafts = [_Draft(ThoughtType.OBSERVATION, r["content"][:limit], parent, uuid.UUID(r["id"])) for r in fresh]
    added = _append(session, drafts, now) if drafts else []
    if owner and owner != session.user_id:
        session.user_id = owner
        session.save(update_fields=["user_id"])
    return added, [held[r["id"]] for r in results if r["id"] in held]


# --- commit ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Decided:
    pk: uuid.UUID
    session_id: str
    conclusion: str
    evidence: list[uuid.UUID]


def _decided(session: ThinkSession, now: datetime) -> _Decided:
    thoughts = list(
        session.thoughts.filter(Q(thought_type=ThoughtType.CONCLUSION) | Q(supporting=True, memory__isnull=False))
    )
    conclusion = next(t.content for t in thoughts if t.thought_type == ThoughtType.CONCLUSION)
    evidence = [t.memory_id for t in thoughts if t.supporting and t.memory_id]
    return _Decided(pk=session.pk, session_id=session.session_id, conclusion=conclusion, evidence=evidence)


def _supports(actor: User, decided: _Decided, memory_id: str | None, run_id: str) -> list[str]:
    """SUPPORTS edges from the cited evidence the actor can still see to the committed memory."""
    if memory_id is None or not decided.evidence:
        return []
    evidence = list(
        Memory.objects.live()
        .visible_to(actor)
        .filter(pk__in=decided.evidence)
        .exclude(pk=memory_id)
        .values_list("id", flat=True)
    )
    Edge.objects.bulk_create(
        [
            Edge(
                source_id=e,
                target_id=memory_id,
                edge_type=EdgeType.SUPPORTS,
                confidence=1.0,
                reason=f"cited by the conclusion of think session {decided.session_id}"[:500],
                created_by=actor,
                run_id=run_id,
            )
            for e in evidence
        ],
        ignore_conflicts=True,
    )
    return [str(e) for e in evidence]


# --- guards that need the database -------------------------------------------------------


def _lock_actor(actor: Actor) -> None:
    """Serializes one actor's think_start calls, so the open-session cap holds under races."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"think-start|{actor.pk}"])


def _require_room_for(actor: Actor, name: str) -> None:
    unfinished = ThinkSession.objects.owned_by(actor).unfinished()
    same = unfinished.filter(session_id=name).first()
    if same is not None:
        raise Conflict(
            f"Think session {name} already exists ({same.state}); commit or discard it first.",
            code="session_exists",
            field="session_id",
            details={"state": same.state},
        )
    cap = settings.HELIX_THINK_MAX_OPEN_SESSIONS
    if unfinished.count() >= cap:
        raise Conflict(
            f"You have {cap} unfinished think sessions; commit or discard one first (search_incomplete_thoughts).",
            code="too_many_sessions",
            details={"max_open_sessions": cap},
        )


def _require_thought(session: ThinkSession, idx: int | None, *, field: str) -> None:
    """Thoughts are never removed from a session, so indices 0 … count − 1 all exist."""
    if idx is not None and idx >= session.thought_count:
        raise InvalidInput(
            f"{field} {idx} is not a thought of this session (it has {session.thought_count}).",
            code="unknown_thought",
            field=field,
        )

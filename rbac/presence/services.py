"""Writes in presence. Heartbeats publish or refresh an instance, farewells end one,
expiry ends the stale ones and forgets the long-ended. None of them writes memory.

Locking, so that concurrent calls neither duplicate nor deadlock: a heartbeat first
locks its principal's user row (FOR NO KEY UPDATE), which serializes one principal's
heartbeats and keeps the instance cap exact; then its own instance row; then the parent
it names. Farewell and expiry never take the principal lock, and expiry skips rows that
are locked, so no two of them wait on each other in opposite orders.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from helixsite.agents.agent_ids import agent_id_parse
from helixsite.errors import Conflict, Forbidden, InvalidInput, NotFound
from rbac.actors import Actor, SystemActor
from rbac.policy import is_active
from rbac.presence.inputs import status_parse
from rbac.presence.models import AgentInstance, EndReason

EXPIRE_BATCH = 1000


def agent_heartbeat(
    *, actor: Actor, agent_id: str, status: str = "active", parent_agent_id: str | None = None
) -> dict[str, Any]:
    """Publish (first call), refresh (live instance) or revive (ended instance) ``agent_id``.

    A refresh may omit ``parent_agent_id``: an instance keeps its place for its session.
    A revival starts a new session: first_seen restarts, the parent is what this call names.
    """
    user = _acting_user(actor)
    agent_id = agent_id_parse(agent_id)
    status = status_parse(status)
    parent_ref = None if parent_agent_id in (None, "") else agent_id_parse(parent_agent_id, field="parent_agent_id")
    if parent_ref == agent_id:
        raise InvalidInput("An instance cannot be its own parent.", field="parent_agent_id")
    with transaction.atomic():
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        instance = AgentInstance.objects.select_for_update().filter(user=user, agent_id=agent_id).first()
        now = timezone.now()
        if instance is not None and instance.is_live:
            outcome = _refresh(instance, status=status, parent_ref=parent_ref, now=now)
        else:
            instance, outcome = _start_session(user, agent_id, instance, status=status, parent_ref=parent_ref, now=now)
    return {
        "ok": True,
        "actor_id": user.get_username(),
        "agent_id": instance.agent_id,
        "status": instance.status,
        "parent_agent_id": instance.parent.agent_id if instance.parent else None,
        "first_seen": instance.first_seen.isoformat(),
        "last_seen": instance.last_seen.isoformat(),
        "outcome": outcome,
    }


def _refresh(instance: AgentInstance, *, status: str, parent_ref: str | None, now: datetime) -> str:
    current = instance.parent.agent_id if instance.parent else None
    if parent_ref is not None and parent_ref != current:
        place = f"a subagent of {current}" if current else "a root instance"
        raise Conflict(
            f"{instance.agent_id} is {place} in this session; call agent_farewell for it before "
            "starting it again under another parent.",
            code="parent_mismatch",
            field="parent_agent_id",
        )
    instance.status, instance.last_seen = status, now
    instance.save(update_fields=["status", "last_seen"])
    return "refreshed"


def _start_session(
    user: User,
    agent_id: str,
    instance: AgentInstance | None,
    *,
    status: str,
    parent_ref: str | None,
    now: datetime,
) -> tuple[AgentInstance, str]:
    parent = _live_parent(user, parent_ref) if parent_ref else None
    _guard_capacity(user)
    if instance is None:
        created = AgentInstance.objects.create(
            user=user, agent_id=agent_id, parent=parent, status=status, first_seen=now, last_seen=now
        )
        return created, "created"
    instance.parent, instance.status = parent, status
    instance.first_seen = instance.last_seen = now
    instance.ended_at, instance.end_reason = None, ""
    instance.sessions += 1
    instance.save()
    return instance, "revived"


def _live_parent(user: User, agent_id: str) -> AgentInstance:
    """The parent row is locked so that a farewell racing with this heartbeat ends the new subagent too."""
    parent = AgentInstance.objects.select_for_update().filter(user=user, agent_id=agent_id).first()
    if parent is None:
        raise NotFound(f"You have no agent instance {agent_id}.", field="parent_agent_id")
    if not parent.is_live:
        raise Conflict(
            f"{agent_id} has ended; a subagent needs a live parent. Send a heartbeat for {agent_id} first, "
            "or omit parent_agent_id.",
            code="parent_ended",
            field="parent_agent_id",
        )
    if parent.parent_id is not None:
        raise InvalidInput(
            f"{agent_id} is itself a subagent; name the root instance that delegated the work.",
            code="nested_subagent",
            field="parent_agent_id",
        )
    return parent


def _guard_capacity(user: User) -> None:
    """A buggy agent minting a new agent_id per call must not fill the table."""
    limit = settings.HELIX_PRESENCE_MAX_INSTANCES
    if AgentInstance.objects.live().filter(user=user).count() < limit:
        return
    agent_instances_expire(user=user)
    if AgentInstance.objects.live().filter(user=user).count() >= limit:
        raise Conflict(
            f"You have {limit} live agent instances, the most allowed. End finished ones with "
            "agent_farewell, or reuse an agent_id.",
            code="too_many_instances",
            field="agent_id",
            details={"limit": limit},
        )


def agent_farewell(*, actor: Actor, agent_id: str) -> dict[str, Any]:
    """End one of the actor's own instances and its subagents. Another principal's instance
    is "not found": farewell neither ends nor reveals it."""
    user = _acting_user(actor)
    agent_id = agent_id_parse(agent_id)
    with transaction.atomic():
        instance = AgentInstance.objects.select_for_update().filter(user=user, agent_id=agent_id).first()
        if instance is None:
            raise NotFound(f"You have no agent instance {agent_id}.", field="agent_id")
        already_ended = not instance.is_live
        subagents = [] if already_ended else _end_with_subagents(instance, timezone.now())
    assert instance.ended_at is not None  # ended before this call, or by it
    return {
        "ok": True,
        "actor_id": user.get_username(),
        "agent_id": instance.agent_id,
        "already_ended": already_ended,
        "ended_at": instance.ended_at.isoformat(),
        "end_reason": instance.end_reason,
        "subagents_ended": subagents,
    }


def _end_with_subagents(instance: AgentInstance, now: datetime) -> list[str]:
    instance.ended_at, instance.end_reason = now, EndReason.FAREWELL
    instance.save(update_fields=["ended_at", "end_reason"])
    subagents = list(
        AgentInstance.objects.live().filter(parent=instance).select_for_update().values_list("pk", "agent_id")
    )
    AgentInstance.objects.filter(pk__in=[pk for pk, _ in subagents]).update(
        ended_at=now, end_reason=EndReason.PARENT_ENDED
    )
    return sorted(name for _, name in subagents)


def agent_instances_expire(*, now: datetime | None = None, user: User | None = None) -> int:
    """End live instances not seen for HELIX_PRESENCE_STALE_SECONDS (and their subagents).

    Idempotent. A root whose subagent is still heartbeating is not stale. Rows locked by
    a heartbeat in flight are skipped: that heartbeat proves them alive.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.HELIX_PRESENCE_STALE_SECONDS)
    stale = AgentInstance.objects.stale(cutoff)
    if user is not None:
        stale = stale.filter(user=user)
    ended = 0
    while True:
        with transaction.atomic():
            ids = list(stale.select_for_update(skip_locked=True).values_list("pk", flat=True)[:EXPIRE_BATCH])
            ended += AgentInstance.objects.filter(pk__in=ids).update(ended_at=now, end_reason=EndReason.EXPIRED)
            ended += (
                AgentInstance.objects.live()
                .filter(parent_id__in=ids)
                .update(ended_at=now, end_reason=EndReason.PARENT_ENDED)
            )
        if len(ids) < EXPIRE_BATCH:
            return ended


def agent_instances_purge(*, now: datetime | None = None) -> int:
    """Delete instances ended more than HELIX_PRESENCE_RETENTION_DAYS ago. Idempotent."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.HELIX_PRESENCE_RETENTION_DAYS)
    deleted = 0
    while True:
        with transaction.atomic():
            # Locked first, skipping rows a heartbeat holds: a revival in flight is never
            # deleted under it, and a heartbeat that waits on a deleted row starts afresh.
            ids = list(
                AgentInstance.objects.ended_before(cutoff)
                .select_for_update(skip_locked=True)
                .values_list("pk", flat=True)[:EXPIRE_BATCH]
            )
            deleted += AgentInstance.objects.filter(pk__in=ids).delete()[1].get(AgentInstance._meta.label, 0)
        if len(ids) < EXPIRE_BATCH:
            return deleted


def _acting_user(actor: Actor) -> User:
    if isinstance(actor, SystemActor):
        raise Forbidden("The system actor runs no agent instances; presence calls come from principals.")
    if not is_active(actor):
        raise Forbidden("This principal is deactivated.")
    return actor

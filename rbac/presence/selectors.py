"""Reads in presence: the swarm as the actor may see it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Max, Q, QuerySet, Window
from django.db.models.functions import Coalesce
from django.utils import timezone

from helixsite.errors import Forbidden
from rbac.actors import Actor
from rbac.policy import is_active
from rbac.presence.models import AgentInstance


def swarm_status(*, actor: Actor, active_window_secs: int | None = None) -> dict[str, Any]:
    """Live instances of the principals visible to ``actor``, grouped by principal (family)
    and by root instance (subagents nested). ``active`` means seen within the window.

    Counters cover every visible live instance; the roster lists at most
    HELIX_PRESENCE_ROSTER_MAX of them, most recently seen families first.
    """
    if not is_active(actor):
        raise Forbidden("This principal is deactivated.")
    window = settings.HELIX_PRESENCE_ACTIVE_WINDOW_SECONDS if active_window_secs is None else active_window_secs
    now = timezone.now()
    since = now - timedelta(seconds=window)
    instances = AgentInstance.objects.live().visible_to(actor)
    limit = settings.HELIX_PRESENCE_ROSTER_MAX
    rows = _roster_rows(instances, since, limit + 1)
    return {
        "ok": True,
        "as_of": now.isoformat(),
        "window_secs": window,
        **_counters(instances, since),
        "families": _families(rows[:limit], since),
        "truncated": len(rows) > limit,
        "roster_limit": limit,
    }


def _counters(instances: QuerySet[AgentInstance], since: datetime) -> dict[str, int]:
    """``active``/``total`` count principals; the instance and subagent counters show concurrency."""
    seen = Q(last_seen__gte=since)
    subagent = Q(parent__isnull=False)
    return instances.aggregate(
        active=Count("user_id", distinct=True, filter=seen),
        total=Count("user_id", distinct=True),
        instances_active=Count("pk", filter=seen),
        instances_total=Count("pk"),
        subagents_active=Count("pk", filter=subagent & seen),
        subagents_total=Count("pk", filter=subagent),
    )


def _roster_rows(instances: QuerySet[AgentInstance], since: datetime, limit: int) -> list[Mapping[str, Any]]:
    """Rows in display order: families by latest sighting, then trees (a root, then its
    subagents) by latest sighting, so a cut at ``limit`` never leaves a subagent without its root."""
    family = [F("user_id")]
    tree = [Coalesce("parent_id", "pk")]
    return list(
        instances.annotate(
            family_seen=Window(Max("last_seen"), partition_by=family),
            family_total=Window(Count("pk"), partition_by=family),
            family_active=Window(Count("pk", filter=Q(last_seen__gte=since)), partition_by=family),
            tree_seen=Window(Max("last_seen"), partition_by=tree),
            tree_id=tree[0],
        )
        .order_by(
            "-family_seen", "user_id", "-tree_seen", "tree_id", F("parent_id").asc(nulls_first=True), "-last_seen"
        )
        .values(
            "pk",
            "user_id",
            "user__username",
            "user__principal__kind",
            "agent_id",
            "parent_id",
            "parent__agent_id",
            "status",
            "first_seen",
            "last_seen",
            "family_seen",
            "family_total",
            "family_active",
        )[:limit]
    )


def _families(rows: list[Mapping[str, Any]], since: datetime) -> list[dict[str, Any]]:
    families: list[dict[str, Any]] = []
    roots: dict[int, dict[str, Any]] = {}
    for row in rows:
        if not families or families[-1]["actor_id"] != row["user__username"]:
            families.append(_family(row))
        entry = _instance(row, since)
        root = roots.get(row["parent_id"])
        if root is not None:
            root["subagents"].append(entry)
        else:  # a root, or a subagent listed without its root (never after a clean farewell or expiry)
            families[-1]["instances"].append({**entry, "subagents": []})
            roots[row["pk"]] = families[-1]["instances"][-1]
    return families


def _family(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "actor_id": row["user__username"],
        "kind": row["user__principal__kind"],
        "active": row["family_active"] > 0,
        "last_seen": row["family_seen"].isoformat(),
        "instances_active": row["family_active"],
        "instances_total": row["family_total"],
        "instances": [],
    }


def _instance(row: Mapping[str, Any], since: datetime) -> dict[str, Any]:
    return {
        "agent_id": row["agent_id"],
        "parent_agent_id": row["parent__agent_id"],
        "status": row["status"],
        "first_seen": row["first_seen"].isoformat(),
        "last_seen": row["last_seen"].isoformat(),
        "active": row["last_seen"] >= since,
    }

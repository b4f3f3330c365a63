"""Reads for the observatory: what is stored, how the agent tools are used, what providers cost.

Every figure is one aggregate query (no table is loaded into memory). What is stored is counted
over the largest tables, so it is counted by a schedule and kept (``counts_snapshot_latest``):
the page reads one row however many memories there are, and says when they were counted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils import timezone

from helixsite.agents.catalogue import tool_classes
from helixsite.agents.models import CallMinute
from helixsite.agents.tool import ToolKind
from helixsite.agents.usage import BOUNDS_MS, Usage, percentile, usage_sum
from helixsite.queue_url import QueueUnreachable
from helixsite.task_broker import queue_broker
from memory.models import Concept, Edge, Entity, Inference, Memory
from memory.providers import get_llm
from rbac.models import ApiToken, Federation, Principal, Workspace
from stewardship.models import CountsSnapshot

WRITE_TOOLS = tuple(tool.tool for tool in tool_classes() if tool.kind is ToolKind.MEMORY_WRITE)
"""The tools that change stored memories, in the catalogue's order."""
SEARCH_TOOLS = tuple(tool.tool for tool in tool_classes() if tool.kind is ToolKind.SEARCH)
"""The tools that search stored memories."""


def stored_counts() -> dict[str, Any]:
    """Memories by lifecycle, live edges by type, and the other things an installation holds."""
    now = timezone.now()
    expired = Q(expires_at__lte=now)
    memories = Memory.objects.aggregate(
        current=Count("pk", filter=Q(deleted_at__isnull=True, valid_to__isnull=True) & ~expired),
        superseded=Count("pk", filter=Q(deleted_at__isnull=True, valid_to__isnull=False) & ~expired),
        expired=Count("pk", filter=Q(deleted_at__isnull=True) & expired),
        forgotten=Count("pk", filter=Q(deleted_at__isnull=False)),
    )
    edges = dict(Edge.objects.live().values_list("edge_type").annotate(n=Count("pk")).order_by("edge_type"))
    principals = Principal.objects.filter(user__is_active=True).aggregate(
        human=Count("pk", filter=Q(kind=Principal.Kind.HUMAN)), agent=Count("pk", filter=Q(kind=Principal.Kind.AGENT))
    )
    return {
        "memories": memories,
        "edges": edges,
        "entities": Entity.objects.count(),
        "concepts": Concept.objects.count(),
        "principals": principals,
        "workspaces": Workspace.objects.count(),
        "federations": Federation.objects.count(),
        "active_tokens": ApiToken.objects.active().count(),
    }


def counts_snapshot_latest() -> CountsSnapshot | None:
    """The newest counts of what is stored (``stewardship.services.counts_snapshot_take``)."""
    return CountsSnapshot.objects.order_by("-taken_at").first()


def queue_state() -> dict[str, Any]:
    """Tasks waiting for a worker and tasks a worker has claimed, as the broker counts them (the
    queue table, or Redis with HELIX_QUEUE_URL), and how long the oldest waiting one has waited."""
    broker = queue_broker()
    try:
        waiting, claimed, enqueued = broker.queue_size(), broker.lock_size(), broker.oldest_waiting_since()
    except QueueUnreachable as exc:
        return {"depth": None, "claimed": None, "oldest_age_seconds": None, "error": str(exc)}
    age = (timezone.now() - enqueued).total_seconds() if enqueued is not None else None
    return {"depth": waiting, "claimed": claimed, "oldest_age_seconds": round(age, 1) if age is not None else None}


def llm_state(*, since: datetime) -> dict[str, Any]:
    llm = get_llm()
    calls = Inference.objects.filter(kind=Inference.Kind.CHAT, created_at__gte=since).aggregate(
        succeeded=Count("pk", filter=Q(ok=True)), failed=Count("pk", filter=Q(ok=False))
    )
    return {"provider": llm.provider, "model": llm.model, "enabled": llm.enabled, **calls}


@dataclass(frozen=True)
class Activity:
    writes: Usage
    searches: Usage


_TABLE = CallMinute._meta.db_table
# The duration histograms added up in the database, bucket by bucket (a day is at most 1,440 rows
# a tool; only the sums, a few dozen numbers, come back).
_SUMS = ", ".join(f"SUM(m.buckets[{i}])" for i in range(1, len(BOUNDS_MS) + 2))
_BUCKET_SUMS = f"""
    SELECT date_trunc('hour', m.minute), m.tool = ANY(%(writes)s), {_SUMS}
    FROM {_TABLE} AS m
    WHERE m.minute >= %(since)s AND (m.tool = ANY(%(writes)s) OR m.tool = ANY(%(searches)s))
    GROUP BY 1, 2
"""
_ERRORS = f"""
    SELECT m.tool = ANY(%(writes)s), SUM(m.errors) FROM {_TABLE} AS m
    WHERE m.minute >= %(since)s AND (m.tool = ANY(%(writes)s) OR m.tool = ANY(%(searches)s))
    GROUP BY 1
"""


def _histograms(since: datetime) -> dict[tuple[datetime, bool], list[int]]:
    """(hour, is a write) → the summed histogram of that hour's writes or searches."""
    params = {"since": since, "writes": list(WRITE_TOOLS), "searches": list(SEARCH_TOOLS)}
    sums: dict[tuple[datetime, bool], list[int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(_BUCKET_SUMS, params)
        for hour, is_write, *counts in cursor.fetchall():
            sums[(hour, is_write)] = [int(count or 0) for count in counts]
    return sums


def activity(*, since: datetime) -> Activity:
    """Agent-tool calls since ``since`` (both transports): writes and searches with p50/p95."""
    params = {"since": since, "writes": list(WRITE_TOOLS), "searches": list(SEARCH_TOOLS)}
    with connection.cursor() as cursor:
        cursor.execute(_ERRORS, params)
        errors = {is_write: int(total) for is_write, total in cursor.fetchall()}
    totals = {True: [0] * (len(BOUNDS_MS) + 1), False: [0] * (len(BOUNDS_MS) + 1)}
    for (_, is_write), buckets in _histograms(since).items():
        totals[is_write] = [a + b for a, b in zip(totals[is_write], buckets, strict=True)]
    return Activity(
        writes=usage_sum([(sum(totals[True]), errors.get(True, 0), totals[True])]),
        searches=usage_sum([(sum(totals[False]), errors.get(False, 0), totals[False])]),
    )


def ledger(*, since: datetime) -> list[dict[str, Any]]:
    """Provider calls since ``since`` by kind, provider and model: calls, failures, tokens."""
    rows = (
        Inference.objects.filter(created_at__gte=since)
        .values("kind", "provider", "model")
        .annotate(
            calls=Count("pk"),
            failed=Count("pk", filter=Q(ok=False)),
            input_tokens=Sum("input_tokens"),
            output_tokens=Sum("output_tokens"),
        )
        .order_by("kind", "provider", "model")
    )
    return list(rows)


def activity_series(*, now: datetime, hours: int = 24) -> dict[str, list[Any]]:
    """Per hour over the last ``hours``: writes, searches and the p95 of both (ms), for the chart.
    Hours without calls are zeros (p95: None), so the chart's time axis has no gaps."""
    start = now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=hours - 1)
    sums = _histograms(start)
    empty = [0] * (len(BOUNDS_MS) + 1)
    series: dict[str, list[Any]] = {"hours": [], "writes": [], "searches": [], "p95_ms": []}
    for step in range(hours):
        hour = start + timedelta(hours=step)
        writes, searches = sums.get((hour, True), empty), sums.get((hour, False), empty)
        both = [a + b for a, b in zip(writes, searches, strict=True)]
        series["hours"].append(int(hour.timestamp()))
        series["writes"].append(sum(writes))
        series["searches"].append(sum(searches))
        series["p95_ms"].append(_finite(percentile(both, 0.95)))
    return series


def _finite(value: float | None) -> float | None:
    """The slowest bucket has no upper bound; the chart shows it at the last bound."""
    if value is None:
        return None
    return min(value, float(BOUNDS_MS[-1]))

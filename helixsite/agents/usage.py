"""What the agent tools were asked and how long they took, kept per minute and tool.

Each call adds one to its minute's row in a single upsert: the count, the failures, and the
histogram bucket of its duration. A day is at most 1,440 rows a tool whatever the traffic,
and percentiles come from the summed buckets (the bucket's upper bound: at most one bucket
wide off). Rows older than ``KEEP_DAYS`` are pruned daily by the worker.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import DatabaseError, connection
from django.utils import timezone

from helixsite.agents.models import CallMinute

logger = logging.getLogger(__name__)

BOUNDS_MS = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 10000)
"""Upper bounds of the duration buckets; one more bucket holds everything slower."""
KEEP_DAYS = 8

_TABLE = CallMinute._meta.db_table
_RECORD = f"""
    INSERT INTO {_TABLE} AS m (minute, tool, calls, errors, buckets)
    VALUES (date_trunc('minute', clock_timestamp()), %(tool)s, 1, %(error)s, %(buckets)s)
    ON CONFLICT (minute, tool) DO UPDATE
    SET calls = m.calls + 1, errors = m.errors + %(error)s, buckets[%(bucket)s] = m.buckets[%(bucket)s] + 1
"""


def bucket_of(duration_ms: float) -> int:
    """The 0-based histogram bucket of a duration."""
    return bisect.bisect_left(BOUNDS_MS, duration_ms)


def call_record(*, tool: str, duration_ms: float, failed: bool) -> None:
    """Count one call. A failure to count never fails the call it counts."""
    bucket = bucket_of(duration_ms)
    buckets = [0] * (len(BOUNDS_MS) + 1)
    buckets[bucket] = 1
    params: dict[str, str | int | list[int]] = {
        "tool": tool,
        "error": int(failed),
        "buckets": buckets,
        "bucket": bucket + 1,
    }
    try:
        with connection.cursor() as cursor:
            cursor.execute(_RECORD, params)
    except DatabaseError:
        logger.warning("could not count a call of %s", tool, exc_info=False)


@dataclass(frozen=True)
class Usage:
    calls: int
    errors: int
    p50_ms: float | None
    p95_ms: float | None


def usage_sum(rows: Iterable[tuple[int, int, list[int]]]) -> Usage:
    """Add up (calls, errors, buckets) rows into counts and percentiles."""
    calls = errors = 0
    totals = [0] * (len(BOUNDS_MS) + 1)
    for row_calls, row_errors, buckets in rows:
        calls += row_calls
        errors += row_errors
        for index, count in enumerate(buckets):
            totals[index] += count
    return Usage(calls=calls, errors=errors, p50_ms=percentile(totals, 0.50), p95_ms=percentile(totals, 0.95))


def percentile(buckets: list[int], fraction: float) -> float | None:
    """The upper bound of the bucket holding the ``fraction`` quantile; None without calls."""
    total = sum(buckets)
    if total == 0:
        return None
    rank = fraction * total
    seen = 0
    for index, count in enumerate(buckets):
        seen += count
        if seen >= rank:
            return float(BOUNDS_MS[index]) if index < len(BOUNDS_MS) else float("inf")
    return float("inf")


def usage_prune(*, now: datetime | None = None) -> int:
    """Delete minutes older than KEEP_DAYS; returns how many rows went."""
    cutoff = (now or timezone.now()) - timedelta(days=KEEP_DAYS)
    deleted, _ = CallMinute.objects.filter(minute__lt=cutoff).delete()
    return deleted

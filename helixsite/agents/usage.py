"""What the agent tools were asked and how long they took, kept per minute and tool.

Each call adds one to its minute's row: the count, the failures, and the histogram bucket of
its duration. The counts are a tally (``helixsite.tally``): in a web server each process sums
them and writes them about once a second, one upsert for each minute and tool; elsewhere each
call writes its own at once. A day is at most 1,440 rows a tool whatever the traffic, and
percentiles come from the summed buckets (the bucket's upper bound: at most one bucket wide
off). Rows older than ``KEEP_DAYS`` are pruned daily by the worker.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from helixsite.agents.models import CallMinute
from helixsite.tally import Tally

BOUNDS_MS = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 10000)
"""Upper bounds of the duration buckets; one more bucket holds everything slower."""
KEEP_DAYS = 8

_TABLE = CallMinute._meta.db_table
_RECORD = f"""
    INSERT INTO {_TABLE} AS m (minute, tool, calls, errors, buckets)
    VALUES (%(minute)s, %(tool)s, %(calls)s, %(errors)s, %(buckets)s)
    ON CONFLICT (minute, tool) DO UPDATE
    SET calls = m.calls + excluded.calls, errors = m.errors + excluded.errors,
        buckets = ARRAY(SELECT a + b FROM unnest(m.buckets, excluded.buckets) WITH ORDINALITY AS t(a, b, i) ORDER BY i)
"""


@dataclass(frozen=True)
class Calls:
    """A minute's calls of one tool: how many, how many failed, and the duration histogram."""

    calls: int
    errors: int
    buckets: tuple[int, ...]

    def __add__(self, other: Calls) -> Calls:
        buckets = tuple(a + b for a, b in zip(self.buckets, other.buckets, strict=True))
        return Calls(self.calls + other.calls, self.errors + other.errors, buckets)


def bucket_of(duration_ms: float) -> int:
    """The 0-based histogram bucket of a duration."""
    return bisect.bisect_left(BOUNDS_MS, duration_ms)


def call_record(*, tool: str, duration_ms: float, failed: bool) -> None:
    """Count one call, in the minute it ended."""
    buckets = [0] * (len(BOUNDS_MS) + 1)
    buckets[bucket_of(duration_ms)] = 1
    minute = timezone.now().replace(second=0, microsecond=0)
    CALLS.add({(minute, tool): Calls(calls=1, errors=int(failed), buckets=tuple(buckets))})


def _write(counted: dict[tuple[datetime, str], Calls]) -> None:
    rows: list[dict[str, Any]] = [
        {"minute": minute, "tool": tool, "calls": c.calls, "errors": c.errors, "buckets": list(c.buckets)}
        for (minute, tool), c in sorted(counted.items())  # one order for every writer: no deadlock
    ]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(_RECORD, rows)


CALLS: Tally[tuple[datetime, str], Calls] = Tally("tool call counts", merge=operator.add, write=_write)


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

"""Tool calls are counted per minute and tool, with a latency histogram the room reads p50/p95 from."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from helixsite.agents.models import CallMinute
from helixsite.agents.usage import KEEP_DAYS, call_record, usage_prune, usage_sum

pytestmark = pytest.mark.django_db


def _usage(tool: str):
    return usage_sum(CallMinute.objects.filter(tool=tool).values_list("calls", "errors", "buckets"))


def test_percentiles_are_the_upper_bound_of_the_bucket_holding_them():
    for duration in [4.0] * 90 + [120.0] * 9 + [12_000.0]:
        call_record(tool="search_memory", duration_ms=duration, failed=False)

    usage = _usage("search_memory")

    assert (usage.calls, usage.errors) == (100, 0)
    assert usage.p50_ms == 5.0, "4 ms falls in the (3, 5] bucket"
    assert usage.p95_ms == 150.0, "the 95th call is one of the 120 ms ones"
    assert CallMinute.objects.filter(tool="search_memory").count() == 1, "one row a minute, however many calls"


def test_failures_are_counted_and_tools_kept_apart():
    call_record(tool="add_memory", duration_ms=30, failed=True)
    call_record(tool="add_memory", duration_ms=30, failed=False)

    assert (_usage("add_memory").calls, _usage("add_memory").errors) == (2, 1)
    assert _usage("search_memory").calls == 0 and _usage("search_memory").p95_ms is None


def test_rows_older_than_the_kept_days_are_pruned():
    call_record(tool="add_memory", duration_ms=1, failed=False)
    old = CallMinute.objects.create(
        minute=timezone.now() - timedelta(days=KEEP_DAYS, minutes=1), tool="add_memory", calls=1, errors=0, buckets=[1]
    )

    assert usage_prune() == 1
    assert not CallMinute.objects.filter(pk=old.pk).exists() and CallMinute.objects.count() == 1

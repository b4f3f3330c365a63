"""The landing page: what is stored, the health of every part, activity and provider use."""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_POST

from helixsite.agents.usage import Usage
from stewardship import metrics
from stewardship.access import steward_only
from stewardship.selectors import health_report
from stewardship.services import counts_snapshot_take
from stewardship.vault.selectors import backup_check


@steward_only
def observatory(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    hour_ago, day_ago = now - timedelta(hours=1), now - timedelta(days=1)
    health = health_report()
    # Shown with the health of every part, but not in /healthz: a failed backup is the operator's
    # to act on, not a reason for a load balancer to take the server out.
    health.checks["backups"] = backup_check()
    counted = metrics.counts_snapshot_latest() or counts_snapshot_take()  # the first visit counts
    context = {
        "counts": counted.counts,
        "counted": counted,
        "health": health,
        "queue": metrics.queue_state(),
        "llm": metrics.llm_state(since=day_ago),
        "activity_rows": _activity_rows(metrics.activity(since=hour_ago), metrics.activity(since=day_ago)),
        "ledger": metrics.ledger(since=day_ago),
        "series": metrics.activity_series(now=now),
        "now": now,
        "write_tools": metrics.WRITE_TOOLS,
        "search_tools": metrics.SEARCH_TOOLS,
    }
    return render(request, "stewardship/observatory.html", context)


@steward_only
@require_POST
def observatory_count(request: HttpRequest) -> HttpResponse:
    """Count what is stored now instead of waiting for the schedule; answers the counts section."""
    counted = counts_snapshot_take()
    return render(request, "stewardship/partials/counts.html", {"counts": counted.counts, "counted": counted})


def _activity_rows(hour: metrics.Activity, day: metrics.Activity) -> list[tuple[str, Usage]]:
    return [
        ("writes, last hour", hour.writes),
        ("searches, last hour", hour.searches),
        ("writes, last 24 hours", day.writes),
        ("searches, last 24 hours", day.searches),
    ]

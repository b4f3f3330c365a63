"""The agents at work: the presence roster (live instances, subagents, last heartbeat) and the
FastThink sessions still running."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memory.fastthink.models import UNFINISHED, ThinkSession
from rbac.presence.selectors import swarm_status
from stewardship.access import steward_only

SESSIONS_SHOWN = 100


@steward_only
def agents(request: HttpRequest) -> HttpResponse:
    unfinished = ThinkSession.objects.filter(state__in=UNFINISHED)
    context = {
        "swarm": _seen_as_times(swarm_status(actor=request.user)),
        "sessions": unfinished.select_related("actor").order_by("-started_at")[:SESSIONS_SHOWN],
        "sessions_total": unfinished.count(),
        "now": timezone.now(),
    }
    return render(request, "stewardship/agents.html", context)


def _seen_as_times(swarm: dict[str, Any]) -> dict[str, Any]:
    """The roster with its instances' times as datetimes, for the room's format: the presence
    selector gives them as ISO text, as the ``swarm_status`` tool answers them."""
    for family in swarm["families"]:
        for instance in family["instances"]:
            for entry in (instance, *instance["subagents"]):
                entry["first_seen"], entry["last_seen"] = (
                    parse_datetime(entry[key]) for key in ("first_seen", "last_seen")
                )
    return swarm

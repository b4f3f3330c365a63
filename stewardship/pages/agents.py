"""The agents at work: the presence roster (live instances, subagents, last heartbeat) and the
FastThink sessions still running."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from memory.fastthink.models import UNFINISHED, ThinkSession
from rbac.presence.selectors import swarm_status
from stewardship.access import steward_only

SESSIONS_SHOWN = 100


@steward_only
def agents(request: HttpRequest) -> HttpResponse:
    unfinished = ThinkSession.objects.filter(state__in=UNFINISHED)
    context = {
        "swarm": swarm_status(actor=request.user),
        "sessions": unfinished.select_related("actor").order_by("-started_at")[:SESSIONS_SHOWN],
        "sessions_total": unfinished.count(),
        "now": timezone.now(),
    }
    return render(request, "stewardship/agents.html", context)

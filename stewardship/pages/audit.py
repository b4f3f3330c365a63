"""The audit trail: every action taken in the room, newest first, a page at a time."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from stewardship.access import steward_only
from stewardship.models import AuditEntry
from stewardship.paging import page_after

PAGE_SIZE = 50


@steward_only
def audit(request: HttpRequest) -> HttpResponse:
    """The full page, or for htmx (filtering, "more") only the rows."""
    entries = AuditEntry.objects.all()
    action = request.GET.get("action", "").strip()[:64]
    if action:
        entries = entries.filter(action__startswith=action)
    page = page_after(entries, cursor=request.GET.get("cursor"), size=PAGE_SIZE)
    template = "stewardship/partials/audit_rows.html" if request.htmx else "stewardship/audit.html"
    return render(request, template, {"page": page, "action": action})

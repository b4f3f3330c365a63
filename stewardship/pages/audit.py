"""The audit trail: every action taken in the room, newest first, a page at a time, each line's
before and after as the keys that changed; filtered by one of the actions the trail holds."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from stewardship.access import steward_only
from stewardship.audit_diff import audit_diff
from stewardship.models import AuditEntry
from stewardship.paging import page_after, query_without_cursor

PAGE_SIZE = 50


class AuditFilter(forms.Form):
    action = forms.ChoiceField(choices=[("", "any")], required=False)

    def __init__(self, data: Any, *, actions: Iterable[str]) -> None:
        super().__init__(data)
        self.fields["action"].choices = [("", "any"), *((action, action) for action in actions)]  # type: ignore[attr-defined]

    def narrow(self, entries: QuerySet[AuditEntry]) -> QuerySet[AuditEntry]:
        """Only the lines of the chosen action; an action the trail does not hold is shown as an error."""
        self.is_valid()
        action = self.cleaned_data.get("action")
        return entries.filter(action=action) if action else entries


@steward_only
def audit(request: HttpRequest) -> HttpResponse:
    """The full page, or for htmx (filtering, "more") only the rows."""
    actions = AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()
    form = AuditFilter(request.GET, actions=actions)
    page = page_after(form.narrow(AuditEntry.objects.all()), cursor=request.GET.get("cursor"), size=PAGE_SIZE)
    rows = [(entry, audit_diff(entry.before, entry.after)) for entry in page.rows]
    template = "stewardship/partials/audit_rows.html" if request.htmx else "stewardship/audit.html"
    return render(request, template, {"form": form, "page": page, "rows": rows, "query": query_without_cursor(request)})

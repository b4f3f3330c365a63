"""The names a field offers as the steward types (``stewardship.suggest``): the options of the
field's datalist, fetched by htmx as its text changes."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from stewardship.access import steward_only
from stewardship.suggest import KINDS, suggested

MAX_TYPED_CHARS = 200


@steward_only
@require_GET
def suggestions(request: HttpRequest, kind: str) -> HttpResponse:
    """The field sends its own value under its own name; whatever that name, its text is read."""
    if kind not in KINDS:
        raise Http404("No such kind of name.")
    typed = next(iter(request.GET.values()), "")[:MAX_TYPED_CHARS]
    return render(request, "stewardship/partials/suggestions.html", {"names": suggested(kind, typed)})

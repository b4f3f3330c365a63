"""The embedding space in use and re-embedding: the newest job (polled while a run works) and the
command that starts, resumes or gives one up. Nothing is started from here (``stewardship.reembed_state``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from helixsite.errors import ApplicationError
from stewardship import answers
from stewardship.access import steward_only
from stewardship.forms import ReembedTargetForm, cleaned
from stewardship.reembed_state import COMMAND, EmbeddingOverview, embedding_overview, reembed_command

PAGE = "stewardship/reembed.html"
FRAGMENT = "stewardship/partials/reembed.html"


@steward_only
@require_GET
def reembed(request: HttpRequest) -> HttpResponse:
    """The page, or for htmx (its poll, the command form) the part below its title; with
    ``provider``, the command that starts a re-embed to that model, or why it would be refused."""
    overview = embedding_overview()
    context = _context(request.GET, overview)
    if "provider" in request.GET:
        try:
            context["command"] = reembed_command(**cleaned(ReembedTargetForm(request.GET)), overview=overview)
        except ApplicationError as error:
            return answers.refused(request, error, form="command", page=PAGE, fragment=FRAGMENT, context=context)
    return answers.page_or_fragment(request, page=PAGE, fragment=FRAGMENT, context=context)


def _context(sent: Any, overview: EmbeddingOverview) -> dict[str, Any]:
    asked = {name: sent.get(name, "")[:500] for name in ("provider", "model", "dimension", "base_url")}
    asked["no_switch"] = bool(sent.get("no_switch"))
    return {
        "overview": overview,
        "asked": asked,
        "status_command": f"{COMMAND} --status",
        "default_base_url": settings.HELIX_EMBEDDING_BASE_URL,
        "errors": {},
    }

"""Memories as a chosen principal sees them ("view as"), a memory's page with its history, edges,
the run that wrote it and a picture of its neighbourhood, and corrections with the API's rules.

Searches and memory pages run with the viewed principal as the actor of the same selectors the
agent tools use, so the room never shows what that principal could not see. Corrections run as
the steward (a global admin), through the same services and history as the tools."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from rest_framework.exceptions import ValidationError

from helixsite.errors import ApplicationError, validation_error
from memory.api.read import SearchMemoryApi
from memory.models import Memory
from memory.search.conductor import memory_graph, memory_search
from memory.search.params import SCOPES
from memory.selectors import memory_detail
from memory.services.corrections import memory_forget, memory_restore, memory_update
from rbac.models import Workspace
from rbac.policy import is_global_admin, readable_workspace_ids
from stewardship.access import steward_only
from stewardship.services import audit_record
from stewardship.states import CURRENT, MemoryState, memory_states
from stewardship.suggest import did_you_mean

SEARCH_FIELDS = ("query", "user_id", "scope", "mode", "limit", "time_from", "time_to")
GRAPH_DEPTH, GRAPH_LIMIT = 2, 60


@steward_only
def memories(request: HttpRequest) -> HttpResponse:
    """The search form and, once asked, the results as the chosen principal would get them."""
    viewer_name = request.GET.get("as", "").strip()[:150] or request.user.get_username()
    asked = {f: request.GET.get(f, "") for f in SEARCH_FIELDS}
    context: dict[str, Any] = {"viewer_name": viewer_name, "asked": asked, "scopes": SCOPES}
    if request.GET.get("query"):
        context.update(_search(viewer_name, request.GET))
    template = "stewardship/partials/memory_results.html" if request.htmx else "stewardship/memories.html"
    return render(request, template, context)


def _search(viewer_name: str, raw: Any) -> dict[str, Any]:
    viewer = User.objects.filter(username=viewer_name, is_active=True).first()
    if viewer is None:
        message = f"No active principal by this name.{did_you_mean('principal', viewer_name)}"
        return {"error": ApplicationError(message, code="not_found", field="as")}
    arguments = {"actor_id": viewer.username, **{f: raw[f] for f in SEARCH_FIELDS if raw.get(f)}}
    try:
        answer = memory_search(actor=viewer, reinforce=False, **SearchMemoryApi.parse(arguments))
    except ValidationError as exc:
        return {"error": validation_error(exc.detail, exc.get_codes())["error"]}
    except ApplicationError as exc:
        return {"error": exc}
    states = memory_states([r["id"] for r in answer["results"] if "id" in r], viewer=viewer)
    for result in answer["results"]:
        result["room_state"] = states.get(result.get("id", ""), CURRENT)
    return {"answer": answer}


def _slugs(workspace_ids: list[int], viewer: User | None = None) -> list[str]:
    """The workspaces a memory is visible in, by name; as ``viewer`` sees it, only those it reads."""
    shown = Workspace.objects.filter(id__in=workspace_ids)
    if viewer is not None and not is_global_admin(viewer):
        shown = shown.filter(id__in=readable_workspace_ids(viewer))
    return list(shown.order_by("slug").values_list("slug", flat=True))


def _state_of(memory_id: uuid.UUID, viewer: User | None) -> MemoryState:
    return memory_states([memory_id], viewer=viewer).get(str(memory_id), CURRENT)


@steward_only
def memory_page(request: HttpRequest, memory_id: uuid.UUID) -> HttpResponse:
    viewer_name = request.GET.get("as", "").strip()[:150]
    viewer = User.objects.filter(username=viewer_name, is_active=True).first() if viewer_name else request.user
    if viewer is None:
        raise Http404("No active principal by this name.")
    # A memory no search reads any more (forgotten, expired) keeps its page for the steward.
    gone = Q(deleted_at__isnull=False) | Q(expires_at__lte=timezone.now())
    past = Memory.objects.filter(gone, pk=memory_id).defer("embedding").first()
    if past is not None and viewer == request.user:
        context = {"memory": past, "history": past.history.all(), "state": _state_of(memory_id, None)}
        return render(request, "stewardship/memory.html", {**context, "visible_slugs": _slugs(past.visible_in)})
    try:
        detail = memory_detail(actor=viewer, memory_id=memory_id)
        graph = memory_graph(actor=viewer, memory_id=memory_id, depth=GRAPH_DEPTH, limit=GRAPH_LIMIT)
    except ApplicationError:
        raise Http404("Memory not found, or not visible to this principal.") from None
    context = {
        "memory": detail.memory,
        "edges_out": detail.edges_out,
        "edges_in": detail.edges_in,
        "history": detail.history,
        "graph": {**graph, "center": str(memory_id)},
        "viewer_name": viewer_name,
        "state": _state_of(memory_id, viewer if viewer_name else None),
        "visible_slugs": _slugs(detail.memory.visible_in, viewer if viewer_name else None),
    }
    return render(request, "stewardship/memory.html", context)


@steward_only
@require_POST
def memory_correct(request: HttpRequest, memory_id: uuid.UUID) -> HttpResponse:
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "").strip()[:500]
    before = _state(memory_id)
    try:
        with transaction.atomic():
            if action == "correct":
                content = request.POST.get("content", "")
                if not content.strip():
                    raise ApplicationError("Write the corrected content.", code="invalid", field="content")
                memory = memory_update(actor=request.user, memory_id=memory_id, content=content, reason=reason)
            elif action == "forget":
                memory = memory_forget(actor=request.user, memory_id=memory_id, reason=reason)
            elif action == "restore":
                memory = memory_restore(actor=request.user, memory_id=memory_id, reason=reason)
            else:
                raise ApplicationError("Choose correct, forget or restore.", code="invalid", field="action")
            audit_record(
                actor=request.user,
                action=f"memory.{action}",
                target=f"memory:{memory_id}",
                before=before,
                after=_state(memory.id),
            )
    except ApplicationError as exc:
        return _correction_form(request, memory_id, error=exc, status=exc.status)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("steward:memory", args=[memory_id])
        return response
    return redirect("steward:memory", memory_id=memory_id)


def _correction_form(
    request: HttpRequest, memory_id: uuid.UUID, *, error: ApplicationError, status: int
) -> HttpResponse:
    memory = Memory.objects.filter(pk=memory_id).defer("embedding").first()
    if memory is None:
        raise Http404("Memory not found.")
    return render(
        request, "stewardship/partials/memory_actions.html", {"memory": memory, "error": error}, status=status
    )


def _state(memory_id: Any) -> dict[str, Any] | None:
    memory = Memory.objects.filter(pk=memory_id).only("content", "deleted_at", "valid_to").first()
    if memory is None:
        return None
    return {
        "content": memory.content,
        "forgotten": memory.deleted_at is not None,
        "superseded": memory.valid_to is not None,
    }

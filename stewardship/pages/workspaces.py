"""Workspaces: the list (filtered, a page at a time), creating one, and a workspace's page: its
name (renaming it), its federation, its members and their roles, and deleting it (refused while
it holds memories, is federated, or is reserved)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from helixsite.errors import ApplicationError
from rbac.models import Role, Workspace
from stewardship import access_changes, answers, directory
from stewardship.access import steward_only
from stewardship.forms import NamedCreateForm, NameFilterForm, RenameForm, cleaned
from stewardship.paging import page_after

PAGE_SIZE = 50
SECTION_SIZE = 25

WORKSPACES = "stewardship/workspaces.html"
WORKSPACE_ROWS = "stewardship/partials/workspace_rows.html"
CREATE = "stewardship/partials/named_create.html"
WORKSPACE = "stewardship/workspace.html"
MEMBER_ROWS = "stewardship/partials/workspace_member_rows.html"
DELETE = "stewardship/partials/workspace_delete.html"
ABOUT = "stewardship/partials/workspace_about.html"


def workspace_url(workspace: Workspace) -> str:
    return reverse("steward:workspace", args=[workspace.slug])


@steward_only
@require_http_methods(["GET", "POST"])
def workspaces(request: HttpRequest) -> HttpResponse:
    """The list (for htmx, filtering and "more": only the rows), or a new workspace (POST)."""
    if request.method == "POST":
        return _create(request)
    context = _list_context(request)
    return answers.page_or_fragment(request, page=WORKSPACES, fragment=WORKSPACE_ROWS, context=context)


def _list_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    filters = NameFilterForm(request.GET)
    name = filters.cleaned_data["name"] if filters.is_valid() else ""
    rows = directory.workspaces_filtered(name=name)
    page = page_after(rows, cursor=request.GET.get("cursor"), size=PAGE_SIZE)
    filter_query = urlencode({"name": name}) if name else ""
    create = {"what": "workspace", "create_url": reverse("steward:workspaces"), "sent": {}, "errors": {}}
    return {"page": page, "name": name, "filter_query": filter_query, **create, **extra}


def _create(request: HttpRequest) -> HttpResponse:
    form = NamedCreateForm(request.POST)
    try:
        workspace = access_changes.workspace_create(actor=request.user, **cleaned(form))
    except ApplicationError as error:
        context = _list_context(request, sent={"create": form.data})
        return answers.refused(request, error, form="create", page=WORKSPACES, fragment=CREATE, context=context)
    context = {"what": "workspace", "create_url": reverse("steward:workspaces"), "sent": {}, "errors": {}}
    context["created"] = {"name": workspace.slug, "url": workspace_url(workspace)}
    return answers.changed(
        request, fragment=CREATE, context=context, event="workspace-created", then=workspace_url(workspace)
    )


@steward_only
@require_GET
def workspace(request: HttpRequest, slug: str) -> HttpResponse:
    """The page; for htmx with ``?members=`` (a cursor), the next rows of its members."""
    place = get_object_or_404(Workspace, slug=slug)
    context = workspace_context(place, members_cursor=request.GET.get("members"))
    fragment = MEMBER_ROWS if "members" in request.GET else WORKSPACE
    return answers.page_or_fragment(request, page=WORKSPACE, fragment=fragment, context=context)


def workspace_context(workspace: Workspace, *, members_cursor: str | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "workspace": workspace,
        "federation": directory.workspace_federation(workspace=workspace),
        "members": page_after(directory.members_of(workspace=workspace), cursor=members_cursor, size=SECTION_SIZE),
        "role_choices": Role.choices,
        "errors": {},
        "notices": {},
        "sent": {},
        **extra,
    }


@steward_only
@require_POST
def workspace_rename(request: HttpRequest, slug: str) -> HttpResponse:
    place = get_object_or_404(Workspace, slug=slug)
    form = RenameForm(request.POST)
    try:
        place = access_changes.workspace_rename(actor=request.user, workspace=place, **cleaned(form))
    except ApplicationError as error:
        context = workspace_context(place, sent={"rename": form.data})
        return answers.refused(request, error, form="rename", page=WORKSPACE, fragment=ABOUT, context=context)
    context = workspace_context(place, notices={"rename": f"Renamed to {place.name}."})
    return answers.changed(
        request, fragment=ABOUT, context=context, event="workspace-renamed", then=workspace_url(place)
    )


@steward_only
@require_POST
def workspace_delete(request: HttpRequest, slug: str) -> HttpResponse:
    place = get_object_or_404(Workspace, slug=slug)
    try:
        access_changes.workspace_delete(actor=request.user, workspace=place)
    except ApplicationError as error:
        context = workspace_context(place)
        return answers.refused(request, error, form="delete", page=WORKSPACE, fragment=DELETE, context=context)
    then = reverse("steward:workspaces")
    return HttpResponseClientRedirect(then) if request.htmx else redirect(then)

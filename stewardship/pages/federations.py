"""Federations: the list, creating one, and a federation's page, where workspaces are attached
and detached. Membership is prospective: it changes where later writes land and who sees
them, never the visibility of memories written before."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from helixsite.errors import ApplicationError
from rbac.models import Federation, Workspace
from stewardship import access_changes, answers, directory
from stewardship.access import steward_only
from stewardship.forms import AttachForm, NamedCreateForm, NameFilterForm, cleaned
from stewardship.paging import page_after

PAGE_SIZE = 50
SECTION_SIZE = 25

FEDERATIONS = "stewardship/federations.html"
FEDERATION_ROWS = "stewardship/partials/federation_rows.html"
CREATE = "stewardship/partials/named_create.html"
FEDERATION = "stewardship/federation.html"
MEMBERS = "stewardship/partials/federation_members.html"
MEMBER_ROWS = "stewardship/partials/federation_member_rows.html"


def federation_url(federation: Federation) -> str:
    return reverse("steward:federation", args=[federation.slug])


@steward_only
@require_http_methods(["GET", "POST"])
def federations(request: HttpRequest) -> HttpResponse:
    """The list (for htmx, filtering and "more": only the rows), or a new federation (POST)."""
    if request.method == "POST":
        return _create(request)
    context = _list_context(request)
    return answers.page_or_fragment(request, page=FEDERATIONS, fragment=FEDERATION_ROWS, context=context)


def _list_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    filters = NameFilterForm(request.GET)
    name = filters.cleaned_data["name"] if filters.is_valid() else ""
    rows = directory.federations_filtered(name=name)
    page = page_after(rows, cursor=request.GET.get("cursor"), size=PAGE_SIZE)
    filter_query = urlencode({"name": name}) if name else ""
    create = {"what": "federation", "create_url": reverse("steward:federations"), "sent": {}, "errors": {}}
    return {"page": page, "name": name, "filter_query": filter_query, **create, **extra}


def _create(request: HttpRequest) -> HttpResponse:
    form = NamedCreateForm(request.POST)
    try:
        federation = access_changes.federation_create(actor=request.user, **cleaned(form))
    except ApplicationError as error:
        context = _list_context(request, sent={"create": form.data})
        return answers.refused(request, error, form="create", page=FEDERATIONS, fragment=CREATE, context=context)
    context = {"what": "federation", "create_url": reverse("steward:federations"), "sent": {}, "errors": {}}
    context["created"] = {"name": federation.slug, "url": federation_url(federation)}
    return answers.changed(
        request, fragment=CREATE, context=context, event="federation-created", then=federation_url(federation)
    )


@steward_only
@require_GET
def federation(request: HttpRequest, slug: str) -> HttpResponse:
    """The page; for htmx with ``?members=`` (a cursor), the next rows of its membership history."""
    group = get_object_or_404(Federation, slug=slug)
    context = federation_context(group, members_cursor=request.GET.get("members"))
    fragment = MEMBER_ROWS if "members" in request.GET else FEDERATION
    return answers.page_or_fragment(request, page=FEDERATION, fragment=fragment, context=context)


def federation_context(federation: Federation, *, members_cursor: str | None = None, **extra: Any) -> dict[str, Any]:
    members = directory.federation_members(federation=federation)
    return {
        "federation": federation,
        "members": page_after(members, cursor=members_cursor, size=SECTION_SIZE),
        "errors": {},
        "notices": {},
        "sent": {},
        **extra,
    }


@steward_only
@require_POST
def federation_attach(request: HttpRequest, slug: str) -> HttpResponse:
    group = get_object_or_404(Federation, slug=slug)
    form = AttachForm(request.POST)
    try:
        workspace = cleaned(form)["workspace"]
        access_changes.federation_attach(actor=request.user, federation=group, workspace=workspace)
    except ApplicationError as error:
        return _members_refused(request, group, error, sent=form.data)
    notice = f"{workspace.slug} joined {group.slug}: its writes from now on are shared across the federation."
    return _members_changed(request, group, notice)


@steward_only
@require_POST
def federation_detach(request: HttpRequest, slug: str, workspace: str) -> HttpResponse:
    group = get_object_or_404(Federation, slug=slug)
    place = get_object_or_404(Workspace, slug=workspace)
    try:
        access_changes.federation_detach(actor=request.user, federation=group, workspace=place)
    except ApplicationError as error:
        return _members_refused(request, group, error)
    notice = f"{place.slug} left {group.slug}: what it wrote while attached stays shared; its new writes are private."
    return _members_changed(request, group, notice)


def _members_changed(request: HttpRequest, federation: Federation, notice: str) -> HttpResponse:
    context = federation_context(federation, notices={"members": notice})
    then = federation_url(federation)
    return answers.changed(request, fragment=MEMBERS, context=context, event="federation-changed", then=then)


def _members_refused(
    request: HttpRequest, federation: Federation, error: ApplicationError, sent: Any = None
) -> HttpResponse:
    context = federation_context(federation, sent={"members": sent or {}})
    return answers.refused(request, error, form="members", page=FEDERATION, fragment=MEMBERS, context=context)

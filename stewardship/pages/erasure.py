"""Erasing an owner (the right to be forgotten): name the owner and, optionally, a workspace; see
what would be erased, table by table; type the owner's id to erase it; read the verification
report. The erasure is ``stewardship.erasure.owner_erase``: one transaction, one audit line."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from helixsite.errors import ApplicationError
from memory.erasure.services import ErasurePreview, owner_erasure_preview
from rbac.models import Workspace
from stewardship import answers, erasure
from stewardship.access import steward_only
from stewardship.forms import OwnerEraseForm, OwnerForm, cleaned
from stewardship.suggest import nearest

PAGE = "stewardship/erasure.html"
FRAGMENT = "stewardship/partials/erasure.html"


@steward_only
@require_http_methods(["GET", "POST"])
def owner_erase(request: HttpRequest) -> HttpResponse:
    """GET with ``user_id``: the counts and the confirmation; POST: the erasure and its report."""
    if request.method == "POST":
        return _erase(request)
    context = _context(request.GET)
    if request.GET.get("user_id"):
        try:
            context["preview"] = preview = owner_erasure_preview(**cleaned(OwnerForm(request.GET)))
            context["nearest_owners"] = nearest("owner", preview.user_id) if preview.empty else []
        except ApplicationError as error:
            return answers.refused(request, error, form="preview", page=PAGE, fragment=FRAGMENT, context=context)
    return answers.page_or_fragment(request, page=PAGE, fragment=FRAGMENT, context=context)


def _erase(request: HttpRequest) -> HttpResponse:
    context, form = _context(request.POST), OwnerEraseForm(request.POST)
    try:
        context["report"] = erasure.owner_erase(actor=request.user, **cleaned(form))
    except ApplicationError as error:
        context["preview"] = _preview_again(form)
        return answers.refused(request, error, form="erase", page=PAGE, fragment=FRAGMENT, context=context)
    return answers.page_or_fragment(request, page=PAGE, fragment=FRAGMENT, context=context)


def _preview_again(form: OwnerEraseForm) -> ErasurePreview | None:
    """The counts again under a refused confirmation, so it can be typed again in place."""
    if not form.is_valid():
        return None
    try:
        return owner_erasure_preview(user_id=form.cleaned_data["user_id"], workspace=form.cleaned_data["workspace"])
    except ApplicationError:
        return None


def _context(sent: Any) -> dict[str, Any]:
    asked = {"user_id": sent.get("user_id", "").strip()[:200], "workspace": sent.get("workspace", "")[:60]}
    workspaces = Workspace.objects.order_by("slug").values_list("slug", flat=True)
    return {"asked": asked, "workspaces": list(workspaces), "errors": {}}

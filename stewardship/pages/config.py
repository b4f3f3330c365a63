"""Runtime configuration: the effective settings and where each comes from, a patch edited then
reviewed as a diff (before → after per key) then applied, the versions with restore, and the
write-only provider keys."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from helixsite.errors import ApplicationError
from helixsite.runtime import selectors
from helixsite.runtime.reload import stored_patch
from helixsite.runtime.services import (
    DEFAULTS_VERSION,
    base_version_parse,
    config_propose,
    config_propose_restore,
    version_current,
)
from stewardship import answers, config_changes
from stewardship.access import steward_only

CONFIG = "stewardship/config.html"
EDIT = "stewardship/config_edit.html"
VERSIONS = "stewardship/config_versions.html"
CHANGE = "stewardship/partials/config_change.html"
EFFECTIVE = "stewardship/partials/config_effective.html"
VERSION_ROWS = "stewardship/partials/config_version_rows.html"


def _sections(rows: list[selectors.EffectiveSetting]) -> list[tuple[str, list[selectors.EffectiveSetting]]]:
    grouped: dict[str, list[selectors.EffectiveSetting]] = {}
    for row in rows:
        grouped.setdefault(row.section, []).append(row)
    return list(grouped.items())


def _edit_context(
    *, sent: dict[str, str] | None = None, refusal: ApplicationError | None = None, **extra: Any
) -> dict[str, Any]:
    """The edit form: each key shows what was sent (a refused or reviewed form keeps its edits) or
    the value in force, whether that differs from the default, and a refusal naming it at its field."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in selectors.config_editable():
        row["shown"] = (sent or {}).get(row["name"], row["value"])
        row["changed"] = row["value"] != row["default"]
        row["refusal"] = refusal if refusal is not None and refusal.field == row["name"] else None
        groups.setdefault(row["group"], []).append(row)
    at_field = any(row["refusal"] for rows in groups.values() for row in rows)
    return {
        "at_field": at_field,
        "groups": list(groups.items()),
        "version": version_current(),
        "defaults": DEFAULTS_VERSION,
        "editing": True,
        **extra,
    }


def _submitted(request: HttpRequest) -> dict[str, str]:
    return {name: request.POST.get(name, "") for name in request.POST if name != "csrfmiddlewaretoken"}


@steward_only
@require_GET
def config(request: HttpRequest) -> HttpResponse:
    context = {"sections": _sections(selectors.config_effective()), "version": version_current()}
    return answers.page_or_fragment(request, page=CONFIG, fragment=EFFECTIVE, context=context)


@steward_only
@require_http_methods(["GET", "POST"])
def config_edit(request: HttpRequest) -> HttpResponse:
    """The form; posted from a review ("Back to editing"), with the values that were reviewed."""
    sent = _submitted(request) if request.method == "POST" else {}
    sent.pop("base_version", None)
    return answers.page_or_fragment(request, page=EDIT, fragment=CHANGE, context=_edit_context(sent=sent))


@steward_only
@require_POST
def config_review(request: HttpRequest) -> HttpResponse:
    submitted = _submitted(request)
    submitted.pop("base_version", None)
    try:
        proposal = config_propose(submitted=submitted)
    except ApplicationError as error:
        context = _edit_context(sent=submitted, refusal=error)
        return answers.refused(request, error, form="edit", page=EDIT, fragment=CHANGE, context=context)
    context = _edit_context(proposal=proposal, apply_url=reverse("steward:config-apply"))
    return answers.page_or_fragment(request, page=EDIT, fragment=CHANGE, context=context)


@steward_only
@require_POST
def config_apply(request: HttpRequest) -> HttpResponse:
    submitted = _submitted(request)
    try:
        base_version = base_version_parse(submitted.pop("base_version", None))
        version = config_changes.config_apply(actor=request.user, submitted=submitted, base_version=base_version)
    except ApplicationError as error:
        return answers.refused(request, error, form="edit", page=EDIT, fragment=CHANGE, context=_edit_context())
    context = _edit_context(applied=version)
    return answers.changed(request, fragment=CHANGE, context=context, event="config-applied", then=_versions_url())


def _versions_url() -> str:
    return reverse("steward:config-versions")


def _versions_context(**extra: Any) -> dict[str, Any]:
    return {
        "versions": list(selectors.config_versions()[:100]),
        "version": version_current(),
        "defaults": DEFAULTS_VERSION,
        "defaults_in_force": not stored_patch(),
        **extra,
    }


@steward_only
@require_GET
def config_versions(request: HttpRequest) -> HttpResponse:
    return answers.page_or_fragment(request, page=VERSIONS, fragment=VERSION_ROWS, context=_versions_context())


@steward_only
@require_POST
def config_restore_review(request: HttpRequest, number: int) -> HttpResponse:
    try:
        proposal = config_propose_restore(number=number)
    except ApplicationError as error:
        return answers.refused(request, error, form="edit", page=VERSIONS, fragment=CHANGE, context=_versions_context())
    apply_url = reverse("steward:config-restore", args=[number])
    context = _versions_context(
        proposal=proposal, apply_url=apply_url, restoring=number, restoring_defaults=number == DEFAULTS_VERSION
    )
    return answers.page_or_fragment(request, page=VERSIONS, fragment=CHANGE, context=context)


@steward_only
@require_POST
def config_restore(request: HttpRequest, number: int) -> HttpResponse:
    try:
        base_version = base_version_parse(request.POST.get("base_version"))
        version = config_changes.config_restore(actor=request.user, number=number, base_version=base_version)
    except ApplicationError as error:
        return answers.refused(request, error, form="edit", page=VERSIONS, fragment=CHANGE, context=_versions_context())
    context = _versions_context(applied=version)
    return answers.changed(request, fragment=CHANGE, context=context, event="config-applied", then=_versions_url())

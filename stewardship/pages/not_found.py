"""handler404: an unknown id in the room answers a page of the room, naming what was asked for.

The room's pages raise ``Http404`` (``get_object_or_404`` and their own lookups) only once the
door (``steward_only``) has let a global admin in, so the page shows nothing a visitor could not
see. An address under /steward/ that leads to no page is answered before any door: a global
admin gets the room's page, anyone else Django's plain one, as every other 404 of the site."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, reverse
from django.views import defaults

from stewardship.access import is_steward
from stewardship.middleware import ROOM_PREFIX


@dataclass(frozen=True)
class Missing:
    """What a room address names, said for when it is not there, and the list to go back to."""

    message: str
    back: str
    back_label: str


ERASED = "does not exist or was erased"
DELETED = "does not exist or was deleted"
MEMORY = Missing(f"This memory {ERASED}.", "steward:memories", "Memories")
DOCUMENT = Missing(f"This document {ERASED}.", "steward:documents", "Documents")
RUN = Missing(f"This run {ERASED}.", "steward:runs", "Runs")
OWNER = Missing(
    "Nothing is held about this owner: no memory or document names them, or they were erased.",
    "steward:owners",
    "Owners",
)
REVIEW = Missing(f"This review {ERASED}.", "steward:reviews", "Reviews")
PROPOSAL = Missing(f"This rule proposal {DELETED}.", "steward:reviews", "Reviews")
PRINCIPAL = Missing(f"This principal {DELETED}.", "steward:people", "People")
TOKEN = Missing(f"This principal or token {DELETED}.", "steward:people", "People")
ROLE = Missing(f"This principal or workspace {DELETED}.", "steward:people", "People")
WORKSPACE = Missing(f"This workspace {DELETED}.", "steward:workspaces", "Workspaces")
MEMBER = Missing(f"This workspace or principal {DELETED}.", "steward:workspaces", "Workspaces")
FEDERATION = Missing(f"This federation {DELETED}.", "steward:federations", "Federations")
FEDERATED = Missing(f"This federation or workspace {DELETED}.", "steward:federations", "Federations")
BACKUP = Missing(f"This backup {DELETED}.", "steward:backups", "Backups")
BACKUP_JOB = Missing("This backup job does not exist.", "steward:backups", "Backups")
CONFIG_VERSION = Missing("This configuration version does not exist.", "steward:config-versions", "Versions")
CREDENTIAL = Missing("There is no such provider key.", "steward:credentials", "Provider keys")
PAGE = Missing("There is no page at this address.", "steward:observatory", "the observatory")

# By the URL's name (stewardship/urls.py): what the address leads to.
BY_PAGE = {
    "memory": MEMORY,
    "memory-correct": MEMORY,
    "document": DOCUMENT,
    "document-forget": DOCUMENT,
    "run": RUN,
    "owner": OWNER,
    "review-settle": REVIEW,
    "proposal-adopt": PROPOSAL,
    "principal": PRINCIPAL,
    "principal-deactivate": PRINCIPAL,
    "principal-reactivate": PRINCIPAL,
    "principal-global-admin": PRINCIPAL,
    "token-issue": PRINCIPAL,
    "tokens-revoke-all": PRINCIPAL,
    "role-grant": PRINCIPAL,
    "token-revoke": TOKEN,
    "role-revoke": ROLE,
    "workspace": WORKSPACE,
    "workspace-rename": WORKSPACE,
    "workspace-delete": WORKSPACE,
    "member-grant": WORKSPACE,
    "member-revoke": MEMBER,
    "federation": FEDERATION,
    "federation-attach": FEDERATION,
    "federation-detach": FEDERATED,
    "backup": BACKUP,
    "backup-download": BACKUP,
    "backup-verify": BACKUP,
    "backup-delete": BACKUP,
    "backup-restore": BACKUP,
    "backup-job": BACKUP_JOB,
    "config-restore-review": CONFIG_VERSION,
    "config-restore": CONFIG_VERSION,
    "credential-set": CREDENTIAL,
    "credential-clear": CREDENTIAL,
}
# Django's own words from get_object_or_404 name a model, which the message above says better.
GENERIC = re.compile(r"No \w+ matches the given query\.")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    user = getattr(request, "user", None)
    if not request.path.startswith(ROOM_PREFIX) or user is None or not is_steward(user):
        return defaults.page_not_found(request, exception)
    match = request.resolver_match
    missing = BY_PAGE.get(match.url_name or "", PAGE) if match else PAGE
    error = {"code": "not_found", "message": missing.message}
    if request.htmx:
        return render(request, "stewardship/partials/error.html", {"error": error, "form_id": "not-found"}, status=404)
    context = {
        "missing": missing,
        "detail": _detail(exception),
        "back": reverse(missing.back),
    }
    return render(request, "stewardship/not_found.html", context, status=404)


def _detail(exception: Exception) -> str:
    """The page's own reason ("…or not visible to this principal"), when it gave one."""
    if isinstance(exception, Resolver404) or not exception.args or not isinstance(exception.args[0], str):
        return ""
    said = exception.args[0]
    return "" if GENERIC.fullmatch(said) else said

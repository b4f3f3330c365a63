"""People and agents: the principals list (filtered, a page at a time), adding a principal, and a
principal's own page: its status and global admin role, its API tokens, its workspaces and roles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from helixsite.errors import ApplicationError
from rbac.models import Principal, Role
from stewardship import access_changes, answers, directory
from stewardship.access import is_steward, steward_only
from stewardship.forms import GlobalAdminForm, PrincipalCreateForm, PrincipalFilterForm, cleaned, form_refusal
from stewardship.paging import page_after

PAGE_SIZE = 50
SECTION_SIZE = 25

PEOPLE = "stewardship/people.html"
PEOPLE_ROWS = "stewardship/partials/people_rows.html"
CREATE = "stewardship/partials/principal_create.html"
PRINCIPAL = "stewardship/principal.html"
STATUS = "stewardship/partials/principal_status.html"
TOKEN_ROWS = "stewardship/partials/token_rows.html"
ROLE_ROWS = "stewardship/partials/principal_role_rows.html"


def account_or_404(username: str) -> User:
    account = directory.principal_by_name(username=username)
    if account is None:
        raise Http404(f"No principal named {username}.")
    return account


def principal_url(account: User) -> str:
    return reverse("steward:principal", args=[account.get_username()])


@steward_only
@require_http_methods(["GET", "POST"])
def people(request: HttpRequest) -> HttpResponse:
    """The list (for htmx, filtering and "more": only the rows), or a new principal (POST)."""
    if request.method == "POST":
        return _create(request)
    return answers.page_or_fragment(request, page=PEOPLE, fragment=PEOPLE_ROWS, context=_people_context(request))


def _people_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    filters = PrincipalFilterForm(request.GET)
    filters.is_valid()  # a filter that is not valid is left out; the others still apply
    values = {name: value for name, value in filters.cleaned_data.items() if value}
    principals = directory.principals_filtered(**values)
    page = page_after(principals, cursor=request.GET.get("cursor"), size=PAGE_SIZE)
    query = urlencode({name: "on" if value is True else value for name, value in values.items()})
    context = {"page": page, "filters": values, "filter_query": query, "kinds": Principal.Kind.choices}
    return {**context, "statuses": PrincipalFilterForm.STATUSES, "sent": {}, "errors": {}, **extra}


def _create(request: HttpRequest) -> HttpResponse:
    form = PrincipalCreateForm(request.POST)
    try:
        principal, issued = access_changes.principal_create(actor=request.user, **cleaned(form))
    except ApplicationError as error:
        context = _people_context(request, sent={"create": form.data})
        return answers.refused(request, error, form="create", page=PEOPLE, fragment=CREATE, context=context)
    created = {"created": principal.user, "issued": issued, "kinds": Principal.Kind.choices, "sent": {}}
    if issued is None:
        then = principal_url(principal.user)
        return answers.changed(request, fragment=CREATE, context=created, event="principal-created", then=then)
    context = _people_context(request, **created)
    return answers.shown_once(request, page=PEOPLE, fragment=CREATE, context=context, event="principal-created")


@steward_only
@require_GET
def principal(request: HttpRequest, username: str) -> HttpResponse:
    """The page; for htmx with ``?tokens=`` or ``?roles=`` (a cursor), the next rows of that list."""
    account = account_or_404(username)
    tokens, roles = request.GET.get("tokens"), request.GET.get("roles")
    context = principal_context(account, tokens_cursor=tokens, roles_cursor=roles)
    fragment = TOKEN_ROWS if "tokens" in request.GET else ROLE_ROWS if "roles" in request.GET else PRINCIPAL
    return answers.page_or_fragment(request, page=PRINCIPAL, fragment=fragment, context=context)


def principal_context(
    account: User, *, tokens_cursor: str | None = None, roles_cursor: str | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "account": account,
        "tokens": page_after(directory.tokens_of(user=account), cursor=tokens_cursor, size=SECTION_SIZE),
        "has_active_tokens": directory.tokens_of(user=account).filter(revoked_at__isnull=True).exists(),
        "roles": page_after(directory.roles_of(user=account), cursor=roles_cursor, size=SECTION_SIZE),
        "role_choices": Role.choices,
        "errors": {},
        "notices": {},
        "sent": {},
        **extra,
    }


@steward_only
@require_POST
def principal_deactivate(request: HttpRequest, username: str) -> HttpResponse:
    notice = "is deactivated: it cannot log in, and its tokens are refused."
    return _status_change(request, account_or_404(username), access_changes.principal_deactivate, notice=notice)


@steward_only
@require_POST
def principal_reactivate(request: HttpRequest, username: str) -> HttpResponse:
    notice = "is active again; its tokens that were not revoked work again."
    return _status_change(request, account_or_404(username), access_changes.principal_reactivate, notice=notice)


@steward_only
@require_POST
def principal_global_admin(request: HttpRequest, username: str) -> HttpResponse:
    account = account_or_404(username)
    form = GlobalAdminForm(request.POST)
    if not form.is_valid():
        return _status_refused(request, account, form_refusal(form))
    is_admin = form.cleaned_data["global_admin"]
    notice = "is a global admin now." if is_admin else "is no longer a global admin."
    change = access_changes.principal_set_global_admin
    return _status_change(request, account, change, notice=notice, is_admin=is_admin)


def _status_change(
    request: HttpRequest, account: User, change: Callable[..., None], *, notice: str, **arguments: Any
) -> HttpResponse:
    try:
        change(actor=request.user, user=account, **arguments)
    except ApplicationError as error:
        return _status_refused(request, account, error)
    account = account_or_404(account.get_username())
    if account.pk == request.user.pk and not is_steward(account):
        # They let themselves out of the room: its door now tells them so.
        then = reverse("steward:observatory")
        return HttpResponseClientRedirect(then) if request.htmx else redirect(then)
    context = principal_context(account, notices={"status": f"{account.get_username()} {notice}"})
    return answers.changed(
        request, fragment=STATUS, context=context, event="principal-changed", then=principal_url(account)
    )


def _status_refused(request: HttpRequest, account: User, error: ApplicationError) -> HttpResponse:
    context = principal_context(account)
    return answers.refused(request, error, form="status", page=PRINCIPAL, fragment=STATUS, context=context)

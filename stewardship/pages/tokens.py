"""A principal's API tokens: issuing one, whose raw value is in that answer and nowhere else
ever after, revoking one, and revoking all at once."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from helixsite.errors import ApplicationError
from rbac.models import ApiToken
from stewardship import access_changes, answers
from stewardship.access import steward_only
from stewardship.forms import TokenIssueForm, cleaned
from stewardship.pages.people import PRINCIPAL, account_or_404, principal_context, principal_url

TOKENS = "stewardship/partials/principal_tokens.html"
TOKEN_ROW = "stewardship/partials/token_row.html"


@steward_only
@require_POST
def token_issue(request: HttpRequest, username: str) -> HttpResponse:
    account = account_or_404(username)
    form = TokenIssueForm(request.POST)
    try:
        issued = access_changes.token_issue(actor=request.user, user=account, **cleaned(form))
    except ApplicationError as error:
        context = principal_context(account, sent={"tokens": form.data})
        return answers.refused(request, error, form="tokens", page=PRINCIPAL, fragment=TOKENS, context=context)
    context = principal_context(account, issued=issued)
    return answers.shown_once(request, page=PRINCIPAL, fragment=TOKENS, context=context, event="token-issued")


@steward_only
@require_POST
def token_revoke(request: HttpRequest, username: str, token_id: int) -> HttpResponse:
    account = account_or_404(username)
    token = get_object_or_404(ApiToken, pk=token_id, user=account)
    token = access_changes.token_revoke(actor=request.user, token=token)
    context = {"account": account, "token": token}
    return answers.changed(
        request, fragment=TOKEN_ROW, context=context, event="token-revoked", then=principal_url(account)
    )


@steward_only
@require_POST
def tokens_revoke_all(request: HttpRequest, username: str) -> HttpResponse:
    account = account_or_404(username)
    revoked = access_changes.tokens_revoke_all(actor=request.user, user=account)
    notice = f"{revoked} token{'' if revoked == 1 else 's'} revoked." if revoked else "No token was active."
    context = principal_context(account, notices={"tokens": notice})
    return answers.changed(
        request, fragment=TOKENS, context=context, event="tokens-revoked", then=principal_url(account)
    )

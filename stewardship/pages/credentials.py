"""Provider API keys, write-only: the page says whether each is set, when and by whom, and
whether the environment's wins; a key typed here is encrypted and never shown again."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from helixsite.errors import ApplicationError, NotFound
from helixsite.runtime import selectors
from helixsite.runtime.credentials import CREDENTIAL_NAMES
from stewardship import answers, config_changes
from stewardship.access import steward_only

PAGE = "stewardship/credentials.html"
FRAGMENT = "stewardship/partials/credentials.html"


def _context(**extra: Any) -> dict[str, Any]:
    return {"credentials": selectors.config_credentials(), **extra}


def _known(name: str) -> str:
    if name not in CREDENTIAL_NAMES:
        raise NotFound(f"There is no credential {name}.", field="name")
    return name


def _answer(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    add_never_cache_headers(response)  # the form held a key a moment ago
    return response


@steward_only
@require_GET
def credentials(request: HttpRequest) -> HttpResponse:
    return answers.page_or_fragment(request, page=PAGE, fragment=FRAGMENT, context=_context())


@steward_only
@sensitive_post_parameters("secret")
@require_POST
def credential_set(request: HttpRequest, name: str) -> HttpResponse:
    try:
        config_changes.credential_set(actor=request.user, name=_known(name), secret=request.POST.get("secret", ""))
    except ApplicationError as error:
        refusal = answers.refused(request, error, form=name, page=PAGE, fragment=FRAGMENT, context=_context())
        return _answer(request, refusal)
    context = _context(done={name: "set"})
    done = answers.changed(request, fragment=FRAGMENT, context=context, event="credential-set", then=_url())
    return _answer(request, done)


@steward_only
@require_POST
def credential_clear(request: HttpRequest, name: str) -> HttpResponse:
    """Asks first: the key is named by its last characters and nothing changes until the steward
    confirms (``confirm`` carrying the key's name)."""
    try:
        if request.POST.get("confirm") != _known(name):
            context = _context(confirming=name)
            return answers.page_or_fragment(request, page=PAGE, fragment=FRAGMENT, context=context)
        config_changes.credential_clear(actor=request.user, name=name)
    except ApplicationError as error:
        return answers.refused(request, error, form=name, page=PAGE, fragment=FRAGMENT, context=_context())
    context = _context(done={name: "cleared"})
    return answers.changed(request, fragment=FRAGMENT, context=context, event="credential-cleared", then=_url())


def _url() -> str:
    return reverse("steward:credentials")

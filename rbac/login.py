"""The session login (the admin's, and the stewardship room's): a budget of failed logins.

Failed logins are counted per username and per client address, each in a token bucket in the
database (``helixsite.db.budgets``): a username may fail ``HELIX_LOGIN_USERNAME_FAILURES``
times and an address ``HELIX_LOGIN_ADDRESS_FAILURES`` times, and each allowance comes back at
that many per ``HELIX_LOGIN_FAILURE_WINDOW_SECONDS``. Every attempt takes one unit from both
before the password is checked, and a success gives its own units back: so concurrent attempts
can never check more passwords than the budget allows, an attempt that finds either bucket
empty is refused without its password being checked (the right one included), and a success
clears no one's failures.

The client address is ``REMOTE_ADDR``: the connecting peer, unless ``HELIX_FORWARDED_ALLOW_IPS``
names a proxy whose X-Forwarded-For the web server may believe (``helixsite.web``).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from helixsite.db.budgets import budget_refund, budget_spend

logger = logging.getLogger(__name__)

LOCKED_OUT = "Too many failed logins for this username or from this address. Try again in %(wait)s."


@dataclass(frozen=True)
class _Budget:
    key: str
    capacity: int
    per_second: float


def _budgets(*, username: str, address: str) -> list[_Budget]:
    window = settings.HELIX_LOGIN_FAILURE_WINDOW_SECONDS
    per_address, per_username = settings.HELIX_LOGIN_ADDRESS_FAILURES, settings.HELIX_LOGIN_USERNAME_FAILURES
    # Hashed: a username may be longer than a key, and the table need not list what strangers typed.
    digest = hashlib.sha256(username.encode()).hexdigest()
    return [
        _Budget(f"login:address:{address[:64]}", per_address, per_address / window),
        _Budget(f"login:username:{digest}", per_username, per_username / window),
    ]


def login_attempt_start(*, username: str, address: str) -> float | None:
    """Take one attempt from the address's and the username's budgets: None when both had one,
    else the seconds until one is back (and nothing is taken)."""
    taken: list[_Budget] = []
    for budget in _budgets(username=username, address=address):
        wait = budget_spend(key=budget.key, capacity=budget.capacity, per_second=budget.per_second)
        if wait is not None:
            for spent in taken:
                budget_refund(key=spent.key, capacity=spent.capacity, per_second=spent.per_second)
            return wait
        taken.append(budget)
    return None


def login_attempt_succeeded(*, username: str, address: str) -> None:
    """Give back what a successful attempt took: a success is not a failure, and resets nothing."""
    for budget in _budgets(username=username, address=address):
        budget_refund(key=budget.key, capacity=budget.capacity, per_second=budget.per_second)


class LoginForm(AuthenticationForm):
    """Django's login form within the budget of failed logins. Past it, the form is invalid with
    the error ``locked_out`` and ``retry_after`` holds the seconds to wait."""

    retry_after: float | None = None

    def clean(self) -> dict[str, Any]:
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()  # nothing is checked, so nothing is counted
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        self.retry_after = login_attempt_start(username=username, address=address)
        if self.retry_after is not None:
            logger.warning("login refused unchecked, too many failures: username %s, address %s", username, address)
            minutes = math.ceil(self.retry_after / 60)
            wait = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
            raise ValidationError(LOCKED_OUT, code="locked_out", params={"wait": wait})
        try:
            cleaned = super().clean()
        except ValidationError:
            if self.user_cache is not None:  # the right password, for an account not let in here
                login_attempt_succeeded(username=username, address=address)
            raise
        login_attempt_succeeded(username=username, address=address)
        return cleaned


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's login form (staff only) within the budget of failed logins."""


def refused_login_answers_429(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A login view whose form was refused for too many failures answers 429 with Retry-After."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        form = (getattr(response, "context_data", None) or {}).get("form")
        retry_after = getattr(form, "retry_after", None)
        if retry_after is not None:
            response.status_code = 429
            response["Retry-After"] = str(math.ceil(retry_after))
        return response

    return wrapped

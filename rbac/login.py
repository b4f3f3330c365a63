"""The session login (the admin's, and the stewardship room's): a budget of failed logins.

Failed logins are counted in token buckets in the database (``helixsite.db.budgets``), each
allowance coming back at that many per ``HELIX_LOGIN_FAILURE_WINDOW_SECONDS``:

- per username *and* client address, ``HELIX_LOGIN_USERNAME_FAILURES``: the guesser is stopped,
  the account's owner, who logs in from another address, is not;
- per client address over all usernames, ``HELIX_LOGIN_ADDRESS_FAILURES``: one address trying
  many usernames is stopped;
- per username over all addresses, ``HELIX_LOGIN_SPRAY_FAILURES``: past it the username is under
  a spray, and is slowed down rather than locked: each address may then try it once per
  ``HELIX_LOGIN_SPRAY_DELAY_SECONDS``. A spray from many addresses checks few passwords, and the
  owner still logs in, at most that long after arriving.

Every attempt takes its units before the password is checked, and a success gives its own units
back: so concurrent attempts can never check more passwords than the budgets allow, an attempt
that finds a budget spent is refused without its password being checked (the right one
included), and a success clears no one's failures. ``manage.py login_unlock`` refills them.

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
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from helixsite.agents.models import RateBudget
from helixsite.db.budgets import budget_refund, budget_spend

logger = logging.getLogger(__name__)

LOCKED_OUT = "Too many failed logins from this address. Try again in %(wait)s."
SLOWED = "This username is receiving many failed logins. Try again in %(wait)s."

_PREFIX = "login:"


@dataclass(frozen=True)
class _Budget:
    key: str
    capacity: int
    per_second: float


def _username_key(username: str) -> str:
    # Hashed: a username may be longer than a key, and the table need not list what strangers typed.
    return hashlib.sha256(username.encode()).hexdigest()


def _address_key(address: str) -> str:
    return address[:64]


def _window_budget(key: str, allowance: int) -> _Budget:
    return _Budget(key, allowance, allowance / settings.HELIX_LOGIN_FAILURE_WINDOW_SECONDS)


def _lock_budgets(*, username: str, address: str) -> list[_Budget]:
    """The budgets that refuse: this address for this username, this address for any."""
    user, addr = _username_key(username), _address_key(address)
    return [
        _window_budget(f"{_PREFIX}pair:{user}:{addr}", settings.HELIX_LOGIN_USERNAME_FAILURES),
        _window_budget(f"{_PREFIX}address:{addr}", settings.HELIX_LOGIN_ADDRESS_FAILURES),
    ]


def _spray_budget(username: str) -> _Budget:
    return _window_budget(f"{_PREFIX}username:{_username_key(username)}", settings.HELIX_LOGIN_SPRAY_FAILURES)


def _slow_budget(*, username: str, address: str) -> _Budget:
    """Under a spray: one attempt per address per HELIX_LOGIN_SPRAY_DELAY_SECONDS."""
    key = f"{_PREFIX}slow:{_username_key(username)}:{_address_key(address)}"
    return _Budget(key, 1, 1 / settings.HELIX_LOGIN_SPRAY_DELAY_SECONDS)


@dataclass(frozen=True)
class Attempt:
    """What an attempt took from the budgets; when refused, nothing, and how long to wait."""

    taken: tuple[_Budget, ...] = ()
    wait: float | None = None  # refused: the seconds until an attempt may be made
    slowed: bool = False  # refused because the username is under a spray (else: a budget is spent)


def login_attempt_start(*, username: str, address: str) -> Attempt:
    """Take one attempt from the budgets of ``username`` tried from ``address``."""
    taken: list[_Budget] = []

    def refused(wait: float, *, slowed: bool) -> Attempt:
        for spent in taken:
            budget_refund(key=spent.key, capacity=spent.capacity, per_second=spent.per_second)
        return Attempt(wait=wait, slowed=slowed)

    for budget in _lock_budgets(username=username, address=address):
        wait = budget_spend(key=budget.key, capacity=budget.capacity, per_second=budget.per_second)
        if wait is not None:
            return refused(wait, slowed=False)
        taken.append(budget)
    spray = _spray_budget(username)
    if budget_spend(key=spray.key, capacity=spray.capacity, per_second=spray.per_second) is None:
        return Attempt(taken=(*taken, spray))
    slow = _slow_budget(username=username, address=address)
    wait = budget_spend(key=slow.key, capacity=slow.capacity, per_second=slow.per_second)
    return Attempt(taken=(*taken, slow)) if wait is None else refused(wait, slowed=True)


def login_attempt_succeeded(attempt: Attempt) -> None:
    """Give back what a successful attempt took: a success is not a failure, and resets nothing."""
    for budget in attempt.taken:
        budget_refund(key=budget.key, capacity=budget.capacity, per_second=budget.per_second)


def login_unlock(*, username: str | None = None, address: str | None = None) -> int:
    """Refill the failed-login budgets of ``username`` (from every address, and its spray budget),
    of ``address`` (for every username), or of that one pair when both are given. The number of
    budgets refilled (a full budget has no row, so 0 means nothing was spent)."""
    if username is None and address is None:
        raise ValueError("login_unlock needs a username or an address")
    user = _username_key(username) if username is not None else None
    addr = _address_key(address) if address is not None else None
    pairs = Q(key__startswith=f"{_PREFIX}pair:") | Q(key__startswith=f"{_PREFIX}slow:")
    if user is not None:
        pairs &= Q(key__regex=f"^{_PREFIX}(pair|slow):{user}:")
    if addr is not None:
        pairs &= Q(key__endswith=f":{addr}")
    matched = pairs
    if user is not None and addr is None:
        matched |= Q(key=f"{_PREFIX}username:{user}")
    if addr is not None and user is None:
        matched |= Q(key=f"{_PREFIX}address:{addr}")
    deleted, _ = RateBudget.objects.filter(matched).delete()
    return deleted


class LoginForm(AuthenticationForm):
    """Django's login form within the budgets of failed logins. Past one, the form is invalid with
    the error ``locked_out`` (or ``slowed``, for a username under a spray) and ``retry_after``
    holds the seconds to wait."""

    retry_after: float | None = None

    def clean(self) -> dict[str, Any]:
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()  # nothing is checked, so nothing is counted
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        attempt = login_attempt_start(username=username, address=address)
        if attempt.wait is not None:
            self.retry_after = attempt.wait
            why = "the username is under a spray" if attempt.slowed else "too many failures"
            logger.warning("login refused unchecked, %s: username %s, address %s", why, username, address)
            raise ValidationError(
                SLOWED if attempt.slowed else LOCKED_OUT,
                code="slowed" if attempt.slowed else "locked_out",
                params={"wait": _wait_text(attempt.wait)},
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            if self.user_cache is not None:  # the right password, for an account not let in here
                login_attempt_succeeded(attempt)
            raise
        login_attempt_succeeded(attempt)
        return cleaned


def _wait_text(seconds: float) -> str:
    if seconds < 60:
        whole = math.ceil(seconds)
        return ngettext("%(n)d second", "%(n)d seconds", whole) % {"n": whole}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


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

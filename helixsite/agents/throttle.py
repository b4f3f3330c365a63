"""The per-token API budget, on the database's token buckets (``helixsite.db.budgets``).

The API budget, the same for REST and MCP (``HELIX_API_RATE``, e.g. 1200/minute), is one
bucket per API token (per user for a browser session) holding the whole budget.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from rest_framework import exceptions as drf
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

# The daily schedule stored by migration agents 0003 names the prune by this module's path.
from helixsite.db.budgets import budget_prune, budget_spend

__all__ = ["TokenRateThrottle", "budget", "budget_key", "budget_prune", "rate_check"]

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def budget() -> tuple[int, float]:
    """``HELIX_API_RATE`` as (calls, per-second refill)."""
    calls, period = settings.HELIX_API_RATE.split("/")
    return int(calls), int(calls) / _PERIODS[period[0]]


def budget_key(*, token: Any, user: Any) -> str:
    return f"token:{token.pk}" if hasattr(token, "pk") else f"user:{user.pk}"


class TokenRateThrottle(BaseThrottle):
    """The budget as a DRF throttle, on every REST tool: past it, 429 ``throttled`` with Retry-After."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        calls, per_second = budget()
        key = budget_key(token=getattr(request, "auth", None), user=request.user)
        self.retry_after = budget_spend(key=key, capacity=calls, per_second=per_second)
        return self.retry_after is None

    def wait(self) -> float | None:
        return math.ceil(self.retry_after) if self.retry_after else None


def rate_check(*, token: Any) -> None:
    """The budget outside DRF's request cycle (MCP): raise Throttled past it."""
    calls, per_second = budget()
    retry_after = budget_spend(key=budget_key(token=token, user=token.user), capacity=calls, per_second=per_second)
    if retry_after is not None:
        raise drf.Throttled(math.ceil(retry_after))

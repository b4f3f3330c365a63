"""Budgets kept as token buckets in the database, and the per-token API budget on them.

A bucket holds up to its capacity and refills at its rate. Each spend takes one unit in a
single atomic statement, so concurrent spends on every web worker draw on one exact budget:
of any burst, at most what the bucket holds is accepted.

The API budget, the same for REST and MCP (``HELIX_API_RATE``, e.g. 1200/minute), is one
bucket per API token (per user for a browser session) holding the whole budget.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone
from rest_framework import exceptions as drf
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from helixsite.agents.models import RateBudget

_TABLE = RateBudget._meta.db_table
_REFILLED = "LEAST(%(capacity)s, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.updated_at) * %(per_second)s)"
# Spend one unit if one is there; the row lock makes concurrent spends wait for each other.
_SPEND = f"""
    INSERT INTO {_TABLE} AS b (key, tokens, updated_at) VALUES (%(key)s, %(capacity)s - 1, clock_timestamp())
    ON CONFLICT (key) DO UPDATE SET tokens = {_REFILLED} - 1, updated_at = clock_timestamp()
    WHERE {_REFILLED} >= 1
    RETURNING b.tokens
"""
_LEFT = f"SELECT {_REFILLED} FROM {_TABLE} AS b WHERE key = %(key)s"
_REFUND = f"""
    UPDATE {_TABLE} AS b SET tokens = LEAST(%(capacity)s, {_REFILLED} + 1), updated_at = clock_timestamp()
    WHERE key = %(key)s
"""
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
# The API budget refills its whole capacity within a day at most (its period is a day at most),
# the login budgets within their window: a bucket untouched that long is full, the same as no row
# at all (a new bucket starts full).
FULL_AFTER = timedelta(days=1)


def budget() -> tuple[int, float]:
    """``HELIX_API_RATE`` as (calls, per-second refill)."""
    calls, period = settings.HELIX_API_RATE.split("/")
    return int(calls), int(calls) / _PERIODS[period[0]]


def budget_spend(*, key: str, capacity: float, per_second: float) -> float | None:
    """Spend one unit of ``key``'s bucket (full when new): None if spent, else the seconds until one is back."""
    params: dict[str, str | float] = {"key": key, "capacity": capacity, "per_second": per_second}
    with connection.cursor() as cursor:
        cursor.execute(_SPEND, params)
        if cursor.fetchone() is not None:
            return None
        cursor.execute(_LEFT, params)
        row = cursor.fetchone()
    left = float(row[0]) if row else 0.0
    return max((1 - left) / per_second, 0.001)


def budget_refund(*, key: str, capacity: float, per_second: float) -> None:
    """Give back one unit spent from ``key``'s bucket (never past its capacity)."""
    with connection.cursor() as cursor:
        cursor.execute(_REFUND, {"key": key, "capacity": capacity, "per_second": per_second})


def budget_prune() -> int:
    """Delete buckets untouched for ``FULL_AFTER`` (every token, username and address that was
    ever counted would otherwise keep its row); the worker runs it daily. Returns how many went."""
    full_after = max(FULL_AFTER, timedelta(seconds=settings.HELIX_LOGIN_FAILURE_WINDOW_SECONDS))
    deleted, _ = RateBudget.objects.filter(updated_at__lt=timezone.now() - full_after).delete()
    return deleted


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

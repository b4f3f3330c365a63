"""The per-token rate budget, the same for REST and MCP: calls are counted in the shared cache,
so every web worker and both transports draw on one budget (``HELIX_API_RATE``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.conf import settings
from rest_framework import exceptions as drf
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class TokenRateThrottle(SimpleRateThrottle):
    """Calls per API token (per user for a browser session)."""

    scope = "agent"

    def get_rate(self) -> str:
        return settings.HELIX_API_RATE

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        token = getattr(request, "auth", None)
        ident = f"token:{token.pk}" if token is not None and hasattr(token, "pk") else f"user:{request.user.pk}"
        return f"throttle:{self.scope}:{ident}"


def rate_check(*, token: Any) -> None:
    """Count one call of ``token`` outside DRF's request cycle (MCP); raise Throttled past the budget."""
    throttle = TokenRateThrottle()
    if not throttle.allow_request(SimpleNamespace(auth=token, user=token.user), None):  # type: ignore[arg-type]
        raise drf.Throttled(throttle.wait())

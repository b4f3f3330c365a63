"""One structured log line per request: method, path, status, latency, principal.

Query strings, headers and bodies are never logged: they can carry tokens.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("helixsite.request")


class RequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        latency_ms = (time.perf_counter() - started) * 1000
        fields = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "latency_ms": round(latency_ms, 2),
            "principal": _principal(request),
        }
        level = request_log_level(response.status_code)
        logger.log(level, "%s %s %s", request.method, request.path, response.status_code, extra={"fields": fields})
        return response


def request_log_level(status: int) -> int:
    """A 503 is an answer chosen (the database out of reach, health failing): a WARNING. Any
    other 5xx is a failure: an ERROR."""
    if status == 503:
        return logging.WARNING
    return logging.ERROR if status >= 500 else logging.INFO


def _principal(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    try:
        return user.get_username() if user is not None and user.is_authenticated else None
    except DatabaseError:  # a session user not yet loaded, and the database out of reach
        return None

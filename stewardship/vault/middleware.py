"""Writes refused with 503 while a restore runs (see ``restore_marker``).

Reads go on: the database being replaced answers them until the switch. The agent tools that
only read are POSTs too, and stay open; logging in to the room stays open, to watch the job."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from helixsite.errors import RETRY_AFTER_SECONDS, ApplicationError
from stewardship.metrics import SEARCH_TOOLS
from stewardship.vault.restore_marker import forget_if_restored, restore_running


class RestoreInProgress(ApplicationError):
    status = 503
    code = "restore_in_progress"


_SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
_READ_ONLY_POSTS = {f"/api/v1/{tool}" for tool in SEARCH_TOOLS} | {"/steward/login/", "/steward/logout/"}
MESSAGE = "A restore of the database is running; writes are refused until it ends. Try again shortly."


class RestoreGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        forget_if_restored()
        if request.method not in _SAFE_METHODS and request.path.rstrip("/") not in _READ_ONLY and restore_running():
            return refusal(request)
        return self.get_response(request)


_READ_ONLY = {path.rstrip("/") for path in _READ_ONLY_POSTS}


def refusal(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(RestoreInProgress(MESSAGE).as_dict(), status=RestoreInProgress.status)
    else:
        response = HttpResponse(f"503 Service Unavailable\n\n{MESSAGE}\n", status=503, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def tool_refused_during_restore(*, reads: bool) -> None:
    """For the MCP transport, which Django's middleware does not see: a tool that writes is
    refused (``restore_in_progress``, like REST's 503) while a restore runs."""
    if not reads and restore_running():
        raise RestoreInProgress(MESSAGE)

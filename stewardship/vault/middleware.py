"""Writes refused with 503 while a restore runs (see ``helixsite.restore_marker``).

Reads go on: the database being replaced answers them until the switch. An agent tool is let
through when its ``ToolApi.kind`` only reads (the same fact the MCP transport asks), whatever
its HTTP method; logging in to the room stays open, to watch the job."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from helixsite.errors import RETRY_AFTER_SECONDS
from helixsite.restore_marker import MESSAGE, RestoreInProgress, forget_if_restored, restore_running

_SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
_ROOM_POSTS_DURING_RESTORE = {"/steward/login", "/steward/logout"}


class RestoreGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        forget_if_restored()
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Callable, args: Any, kwargs: Any) -> HttpResponse | None:
        if request.method in _SAFE_METHODS or _served_during_restore(request, view) or not restore_running():
            return None
        return refusal(request)


def _served_during_restore(request: HttpRequest, view: Callable) -> bool:
    tool = getattr(view, "cls", None)  # DRF's as_view() keeps the view class here
    return bool(getattr(tool, "reads", False)) or request.path.rstrip("/") in _ROOM_POSTS_DURING_RESTORE


def refusal(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(RestoreInProgress(MESSAGE).as_dict(), status=RestoreInProgress.status)
    else:
        response = HttpResponse(f"503 Service Unavailable\n\n{MESSAGE}\n", status=503, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response

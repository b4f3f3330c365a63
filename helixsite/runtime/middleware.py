"""Every web request first brings this process's configuration up to date (a version check at
most every few seconds). Health and static files skip it: they must answer at once even when
the database keeps them waiting."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from helixsite.runtime.reload import runtime_refresh

_SKIPPED = ("/healthz", "/static/")


class RuntimeConfigMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(_SKIPPED):
            runtime_refresh()
        return self.get_response(request)

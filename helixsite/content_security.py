"""A Content-Security-Policy on every response: our own origin only.

Every page (the admin, the browsable API, the API docs, the stewardship room) loads its
scripts, styles, fonts and images from our own static files and talks only to this server, so
a script injected into a page can neither run inline nor load from elsewhere or send data
away; no page may be framed. A response that sets its own policy keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # the admin's and Swagger UI's icons are data: URLs in their stylesheets
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response

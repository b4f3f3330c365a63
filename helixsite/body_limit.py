"""Refuse request bodies larger than HELIX_MAX_BODY_BYTES with 413, before reading them."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def too_large() -> JsonResponse:
    limit = settings.HELIX_MAX_BODY_BYTES
    error = {"code": "payload_too_large", "message": f"The request body is larger than {limit} bytes.", "limit": limit}
    return JsonResponse({"ok": False, "error": error}, status=413)


class BodyLimitMiddleware:
    """A declared Content-Length over the limit is refused at once; a body without one is
    counted while it is read (Django raises RequestDataTooBig, answered 413 by the API)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.HELIX_MAX_BODY_BYTES:
            return too_large()
        return self.get_response(request)

"""Every answer of the room (pages, fragments, downloads, its 404s and 403s) is sent with
``Cache-Control: no-store``: it shows the installation's data, which no browser or proxy cache may
keep a copy of."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

ROOM_PREFIX = "/steward/"


class NoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(ROOM_PREFIX):
            patch_cache_control(response, no_store=True)
        return response

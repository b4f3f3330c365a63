"""How the room's pages answer.

One URL answers the full page or, for htmx, the fragment. A change that worked answers htmx
with the updated fragment and an ``HX-Trigger`` naming what changed (other parts of the page
listen for it), and a plain form post with a redirect to the page (post/redirect/get). A
refusal is the one error shape (code, message, field) rendered inline in the fragment of the
form that was sent, with the error's status; the room's htmx configuration swaps 4xx answers
in, so the message shows where the form is."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from helixsite.errors import ApplicationError


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request for part of a page; restoring history after a cache miss asks for the whole."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def page_or_fragment(
    request: HttpRequest, *, page: str, fragment: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    response = render(request, fragment if wants_fragment(request) else page, context, status=status)
    # The same URL answers two bodies: a cache must tell them apart.
    patch_vary_headers(response, ("HX-Request",))
    return response


def changed(request: HttpRequest, *, fragment: str, context: dict[str, Any], event: str, then: str) -> HttpResponse:
    """A change that worked: for htmx the fragment and the event; otherwise back to ``then``."""
    if not request.htmx:
        return redirect(then)
    response = render(request, fragment, context)
    response["HX-Trigger"] = event
    return response


def refused(
    request: HttpRequest,
    error: ApplicationError,
    *,
    form: str,
    page: str,
    fragment: str,
    context: dict[str, Any],
) -> HttpResponse:
    """The error shown inline in ``form``'s part of the page (``errors.<form>`` in the templates)."""
    context = {**context, "errors": {form: error}}
    return page_or_fragment(request, page=page, fragment=fragment, context=context, status=error.status)


def shown_once(request: HttpRequest, *, page: str, fragment: str, context: dict[str, Any], event: str) -> HttpResponse:
    """A change whose answer carries a raw token: rendered, even for a plain form post (a redirect
    would lose the token), and never kept by a cache or the browser's history."""
    response = page_or_fragment(request, page=page, fragment=fragment, context=context)
    if request.htmx:
        response["HX-Trigger"] = event
    add_never_cache_headers(response)
    return response

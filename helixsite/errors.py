"""The one error type services raise, and the one JSON shape every API answers errors in:
``{"ok": false, "error": {"code": ..., "message": ..., "field": ...}}``.

A database out of reach is no error of the caller's nor a bug: every surface answers it with
503 ``database_unavailable`` and a Retry-After, the API in that shape, pages in plain text. The
same for the task queue on Redis (HELIX_QUEUE_URL) out of reach, as 503 ``queue_unavailable``,
where a request needs its task queued (the vault); work already recorded in the database is
accepted all the same and queued later (``helixsite.task_broker.task_enqueue``).

Anything else nobody expected is a bug of ours: the API answers 500 ``internal_error`` in that
shape with an incident id and nothing of the exception, whose traceback is logged under that id.
"""

from __future__ import annotations

import logging
import sys
import uuid
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from helixsite.body_limit import body_limit_for, payload_too_large
from helixsite.db.outage import is_unreachable
from helixsite.queue_url import QueueUnreachable

RETRY_AFTER_SECONDS = 5

logger = logging.getLogger("helixsite.errors")


class ApplicationError(Exception):
    status = 400
    code = "invalid"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        status: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.field = field
        self.status = status or self.status
        self.details = details or {}

    def as_dict(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field:
            error["field"] = self.field
        error.update(self.details)
        return {"ok": False, "error": error}


class InvalidInput(ApplicationError):
    status = 400
    code = "invalid"


class NotFound(ApplicationError):
    """Also the answer for "exists, but not yours": names must not leak."""

    status = 404
    code = "not_found"


class Forbidden(ApplicationError):
    status = 403
    code = "forbidden"


class Conflict(ApplicationError):
    status = 409
    code = "conflict"


class DatabaseUnavailable(ApplicationError):
    status = 503
    code = "database_unavailable"

    def __init__(self) -> None:
        # Nothing about the server (addresses, socket paths): the caller may be anyone.
        super().__init__("The database cannot be reached right now; try again shortly.")


class QueueUnavailable(ApplicationError):
    status = 503
    code = "queue_unavailable"

    def __init__(self, message: str = "The task queue cannot be reached right now; try again shortly.") -> None:
        super().__init__(message)  # nothing about where the queue is: the caller may be anyone


class InternalError(ApplicationError):
    """A failure of the server's own: the caller learns an incident id to quote, never the cause
    (an exception's text can name tables, paths, other tenants' values)."""

    status = 500
    code = "internal_error"

    def __init__(self, incident: str) -> None:
        super().__init__(
            f"The server failed on this request; it is logged as incident {incident}.",
            details={"incident": incident},
        )


def internal_error(exc: BaseException, where: str) -> InternalError:
    """Log ``exc`` with its traceback under a new incident id and return the error to answer."""
    incident = uuid.uuid4().hex[:12]
    logger.error("Incident %s: unexpected failure in %s", incident, where, exc_info=exc)
    return InternalError(incident)


def api_exception_handler(exc: Exception, context: dict) -> Response:
    """DRF's EXCEPTION_HANDLER: every failure in the one shape. ``context["where"]`` names the
    surface for the log when there is no request (an MCP call)."""
    if is_unreachable(exc) or isinstance(exc, QueueUnreachable):
        unavailable = DatabaseUnavailable() if is_unreachable(exc) else QueueUnavailable()
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        return Response(unavailable.as_dict(), status=unavailable.status, headers=headers)
    if isinstance(exc, ApplicationError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, drf.ValidationError):
        return Response(validation_error(exc.detail, exc.get_codes()), status=400)
    if isinstance(exc, RequestDataTooBig):
        request = context.get("request")
        limit = body_limit_for(request.path) if request is not None else None
        return Response(payload_too_large(limit), status=413)
    if isinstance(exc, Http404):
        return Response(NotFound("Not found.").as_dict(), status=404)
    if isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        request = context.get("request")
        error = internal_error(exc, request.path if request is not None else context.get("where", "a call"))
        return Response(error.as_dict(), status=error.status)
    code = _DRF_CODES.get(type(exc), getattr(exc, "default_code", "error"))
    detail = getattr(exc, "detail", exc)
    message = detail if isinstance(detail, str) else str(detail)
    response.data = {"ok": False, "error": {"code": code, "message": str(message)}}
    return response


_DRF_CODES = {
    drf.NotAuthenticated: "unauthenticated",
    drf.AuthenticationFailed: "unauthenticated",
    drf.PermissionDenied: "forbidden",
    drf.Throttled: "throttled",
    drf.ParseError: "malformed_request",
    drf.UnsupportedMediaType: "unsupported_media_type",
    drf.MethodNotAllowed: "method_not_allowed",
    drf.NotAcceptable: "not_acceptable",
}


def validation_error(detail: Any, codes: Any = None) -> dict[str, Any]:
    """The first field error leads (with its code: required, unknown_parameter, max_value…);
    all of them are kept under ``fields``."""
    if isinstance(detail, dict):
        fields = {name: [str(m) for m in (msgs if isinstance(msgs, list) else [msgs])] for name, msgs in detail.items()}
        field, messages = next(iter(fields.items()))
        error: dict[str, Any] = {
            "code": _first_code(codes, field),
            "message": messages[0] if messages else "Invalid value.",
        }
        if field != "non_field_errors":
            error["field"] = field
        error["fields"] = fields
        return {"ok": False, "error": error}
    messages = detail if isinstance(detail, list) else [detail]
    return {"ok": False, "error": {"code": "invalid", "message": str(messages[0])}}


def _first_code(codes: Any, field: str) -> str:
    """The machine-readable code of the first error of ``field`` ("invalid" for nested ones)."""
    code = codes.get(field) if isinstance(codes, dict) else None
    while isinstance(code, list | dict):
        code = (code[0] if code else None) if isinstance(code, list) else next(iter(code.values()), None)
    return code if isinstance(code, str) else "invalid"


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: what Django answers for an exception nothing else answered (a page, a
    middleware; Django has logged it). The database or the task queue out of reach is a 503;
    otherwise JSON ``internal_error`` under /api/ and Django's 500 page elsewhere."""
    exc = sys.exc_info()[1]
    unavailable: ApplicationError
    if exc is not None and is_unreachable(exc):
        unavailable = DatabaseUnavailable()
    elif isinstance(exc, QueueUnreachable):
        unavailable = QueueUnavailable()
    elif request.path.startswith("/api/"):
        error = InternalError(uuid.uuid4().hex[:12])
        logger.error("Incident %s: the 500 above, for %s", error.details["incident"], request.path)
        return JsonResponse(error.as_dict(), status=error.status)
    else:
        return defaults.server_error(request)
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(unavailable.as_dict(), status=unavailable.status)
    else:
        text = f"503 Service Unavailable\n\n{unavailable.message}\n"
        response = HttpResponse(text, status=unavailable.status, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response

"""MCP over streamable HTTP at ``/mcp``, behind the same bearer tokens as the REST API.

Before a request reaches the MCP transport it must name an allowed host (Django's
``ALLOWED_HOSTS`` rules, against DNS rebinding), come from no foreign browser origin and
present a valid token (the body limit is held in front of every path, by
``helixsite.body_limit``). Every refusal answers in REST's error shape.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from rest_framework import exceptions as drf
from rest_framework.renderers import JSONRenderer
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from helixsite.agents.mcp.server import build_server, run_blocking
from helixsite.agents.mcp.tools import tool_definitions
from helixsite.errors import api_exception_handler
from helixsite.request_log import request_log_level
from rbac.authentication import KEYWORD, bearer_authenticate
from rbac.models import ApiToken

logger = logging.getLogger("helixsite.request")
TOKEN_KEY = "helixsite.token"  # the ASGI scope entry carrying the request's authenticated token


class McpHttpApp:
    """The ASGI app for ``/mcp``. ``lifespan()`` must be entered before it serves (the ASGI
    router in ``helixsite.asgi`` does it on the server's lifespan startup)."""

    def __init__(self) -> None:
        # Stateless, with plain JSON answers: uvicorn's web workers are separate processes, so a
        # session opened on one would be unknown to the next worker a client's request lands
        # on. Helixsite never writes to a client unasked, so sessions and SSE streams would buy
        # nothing: each POST is one self-contained exchange that any worker can serve.
        self.manager = StreamableHTTPSessionManager(
            app=build_server(authenticate=_request_token),
            json_response=True,
            stateless=True,
            # Host and Origin are checked in _refusal, with Django's ALLOWED_HOSTS rules
            # (".example.com" subdomains, "*"), which the SDK's own check cannot express.
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
            # helixsite.body_limit refused every larger body already; the SDK's own limit (4 MiB
            # by default) must not refuse a body that passed it.
            max_request_body_size=settings.HELIX_MAX_BODY_BYTES,
        )
        self.running = False

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        await run_blocking(tool_definitions)  # build the tool schemas before the first client asks
        async with self.manager.run():
            self.running = True
            try:
                yield
            finally:
                self.running = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started, seen = time.perf_counter(), {"status": 0}

        async def send_logged(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
            await send(message)

        token: ApiToken | None = None
        try:
            token, refusal = await self._admit(scope)
            if refusal is not None:
                await refusal(scope, receive, send_logged)
            else:
                await self.manager.handle_request({**scope, TOKEN_KEY: token}, receive, send_logged)
        finally:
            _log(scope, seen["status"], token, started)

    async def _admit(self, scope: Scope) -> tuple[ApiToken | None, Response | None]:
        """The request's token, and the answer refusing the request if it is refused."""
        refusal = self._refusal(scope)
        if refusal is not None:
            return None, refusal
        token, refusal = await run_blocking(_authenticate, Headers(scope=scope).get("authorization", ""))
        if refusal is None and scope["method"] != "POST":
            # Stateless: no server-to-client stream to GET (an idle one would be held open for
            # nothing), no session to DELETE. The spec's answer for that is 405.
            message = "Only POST: this server opens no streams and keeps no sessions."
            refusal = _error(405, "method_not_allowed", message, headers={"Allow": "POST"})
        return token, refusal

    def _refusal(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        if not self.running:
            return _error(503, "unavailable", "MCP is not started: serve helixsite.asgi with lifespan on.")
        if not _host_allowed(headers.get("host", "")):
            return _error(400, "disallowed_host", "This host is not in ALLOWED_HOSTS.")
        if not _origin_allowed(headers.get("origin"), own=f"{scope.get('scheme', 'http')}://{headers.get('host', '')}"):
            return _error(403, "forbidden_origin", "Requests from this web origin are not accepted.")
        return None


def _request_token(ctx: ServerRequestContext) -> ApiToken:
    token = ctx.request.scope.get(TOKEN_KEY) if ctx.request is not None else None
    if token is None:
        raise drf.NotAuthenticated()
    return token


def _authenticate(header: str) -> tuple[ApiToken | None, Response | None]:
    """The request's token, or what REST would answer instead: 401, or 503 with the database
    out of reach (blocking: it asks the database)."""
    try:
        token = bearer_authenticate(header)
        if token is None:
            raise drf.NotAuthenticated()
    except Exception as exc:
        if isinstance(exc, drf.APIException):
            exc.auth_header = KEYWORD  # as DRF's view does, for WWW-Authenticate
        answer = api_exception_handler(exc, {"where": "MCP authentication"})
        headers = {name: value for name, value in answer.items() if name.lower() != "content-type"}
        body = JSONRenderer().render(answer.data)
        return None, Response(body, status_code=answer.status_code, headers=headers, media_type="application/json")
    return token, None


def _host_allowed(host: str) -> bool:
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # what Django itself allows then
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


def _origin_allowed(origin: str | None, *, own: str) -> bool:
    """Agents send no Origin; a browser page may call only from this server's own origin
    (scheme, host and port: another port on the same host is another site) or a trusted one."""
    if not origin:
        return True
    return origin in settings.CSRF_TRUSTED_ORIGINS or origin.lower() == own.lower()


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    body = JSONRenderer().render({"ok": False, "error": {"code": code, "message": message}})
    return Response(body, status_code=status, headers=headers, media_type="application/json")


def _log(scope: Scope, status: int, token: ApiToken | None, started: float) -> None:
    """The request log line Django's RequestLogMiddleware writes for every other path."""
    fields: dict[str, Any] = {
        "method": scope.get("method"),
        "path": scope.get("path"),
        "status": status,
        "latency_ms": round((time.perf_counter() - started) * 1000, 2),
        "principal": token.user.get_username() if token else None,
    }
    level = logging.WARNING if status == 0 else request_log_level(status)
    logger.log(level, "%s %s %s", fields["method"], fields["path"], status, extra={"fields": fields})

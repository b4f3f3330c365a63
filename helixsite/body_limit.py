"""HELIX_MAX_BODY_BYTES, held at the ASGI door in front of every path (Django's and ``/mcp``).

It cannot be a Django middleware: Django's ASGI handler reads the whole body, into memory or a
temporary file, before its first middleware runs. So here, before any app sees the request:

- a declared ``Content-Length`` over the limit is answered 413 at once, without reading a byte;
- a body without one (``Transfer-Encoding: chunked``) is read here and answered 413 as soon as it
  passes the limit; within it, the app gets it whole with its ``Content-Length`` declared (DRF
  reads no body from a request that declares no length: a chunked call lost its arguments).

A refusal closes the connection, so the server reads no more of the body.

``add_document`` alone carries a whole document: its path is held to HELIX_MAX_DOCUMENT_BODY_BYTES;
``add_conversation`` carries many messages: its path (and mem0's add, ``/mem0/…/v3/memories/add/``)
is held to HELIX_MAX_CONVERSATION_BODY_BYTES.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from django.conf import settings
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("helixsite.request")


DOCUMENT_PATH = "/api/v1/add_document"
CONVERSATION_PATH = "/api/v1/add_conversation"
MEM0_ADD_PATH = "/v3/memories/add"  # mem0's add (helixsite.mem0): add_conversation's under /mem0/


def body_limit_for(path: str) -> int:
    """The largest body ``path`` accepts."""
    if path.rstrip("/").endswith(DOCUMENT_PATH):
        return max(settings.HELIX_MAX_BODY_BYTES, settings.HELIX_MAX_DOCUMENT_BODY_BYTES)
    if path.rstrip("/").endswith(CONVERSATION_PATH) or _mem0_add(path):
        return max(settings.HELIX_MAX_BODY_BYTES, settings.HELIX_MAX_CONVERSATION_BODY_BYTES)
    return settings.HELIX_MAX_BODY_BYTES


def _mem0_add(path: str) -> bool:
    return path.startswith("/mem0/") and path.rstrip("/").endswith(MEM0_ADD_PATH)


def payload_too_large(limit: int | None = None) -> dict[str, Any]:
    limit = settings.HELIX_MAX_BODY_BYTES if limit is None else limit
    error = {"code": "payload_too_large", "message": f"The request body is larger than {limit} bytes.", "limit": limit}
    return {"ok": False, "error": error}


class BodyLimit:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        declared = Headers(scope=scope).get("content-length")
        if declared is None:
            await self._read_then_serve(scope, receive, send, started)
        elif not re.fullmatch(r"[0-9]+", declared):
            malformed = {"code": "malformed_request", "message": "Content-Length is not a number of bytes."}
            await _refuse(scope, send, started, 400, {"ok": False, "error": malformed})
        elif int(declared) > body_limit_for(scope["path"]):
            await _refuse(scope, send, started, 413, payload_too_large(body_limit_for(scope["path"])))
        else:
            await self.app(scope, receive, send)  # the server stops the body at its declared length

    async def _read_then_serve(self, scope: Scope, receive: Receive, send: Send, started: float) -> None:
        body = bytearray()
        limit = body_limit_for(scope["path"])
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left: nobody to answer
            body += message.get("body", b"")
            if len(body) > limit:
                await _refuse(scope, send, started, 413, payload_too_large(limit))
                return
            more = message.get("more_body", False)
        headers = [(name, value) for name, value in scope["headers"] if name != b"transfer-encoding"]
        headers.append((b"content-length", str(len(body)).encode()))
        whole: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": False}]

        async def receive_whole() -> Message:
            return whole.pop() if whole else await receive()  # then the server's http.disconnect

        await self.app({**scope, "headers": headers}, receive_whole, send)


async def _refuse(scope: Scope, send: Send, started: float, status: int, answer: dict[str, Any]) -> None:
    body = json.dumps(answer).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
    fields = {
        "method": scope["method"],
        "path": scope["path"],
        "status": status,
        "latency_ms": round((time.perf_counter() - started) * 1000, 2),
        "principal": None,
    }
    logger.info("%s %s %s", scope["method"], scope["path"], status, extra={"fields": fields})

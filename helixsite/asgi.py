"""The ASGI entry point (``uvicorn helixsite.asgi:application``): ``/mcp`` is the MCP server's
streamable HTTP transport, every other path is Django, as before; the body limit stands in
front of both. While the server runs, the counts calls add to are summed and written about once
a second (``helixsite.tally``)."""

from __future__ import annotations

import asyncio
import logging
import os

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase
from starlette.types import ASGIApp, Receive, Scope, Send


class OneThreadHandler(ASGIHandler):
    """Django under ASGI, each request's middleware and view run in one call on its thread.

    Every middleware here is synchronous, and so is every view. Django's own handler builds the
    chain for the event loop: it crosses to a thread for the middleware, back to the loop for the
    handler inside them, and to the thread again for the view, three crossings a request, each a
    wait for the loop or the thread on two busy cores. Built as for WSGI and called once on the
    request's thread (the same thread-sensitive one Django gives the view, so the database
    connection stays its own), it answers 0.7–0.8 ms sooner (a refused call 4.8–5.0 against
    5.5–5.8 ms, a LoCoMo search 0.9 ms: docs/benchmarks.md); what it answers is the same."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "helixsite.settings.base")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does
django_application = OneThreadHandler()

from helixsite.agents.mcp.http import McpHttpApp  # noqa: E402 - needs the apps get_asgi_application loaded
from helixsite.body_limit import BodyLimit  # noqa: E402
from helixsite.tally import buffer_start, buffer_stop  # noqa: E402
from memory.providers import ProviderError, embedder_prepare  # noqa: E402

logger = logging.getLogger("helixsite.web")


class PathRouter:
    def __init__(self, *, django: ASGIApp, mcp: McpHttpApp) -> None:
        self.django = django
        self.mcp = mcp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp":
            await self.mcp(scope, receive, send)
        else:
            await self.django(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """Django has no lifespan of its own. The MCP transport's task group lives from the
        server's startup to its shutdown, in each web worker process, which loads the embedding
        model before it takes its first request; the counts summed meanwhile are written as it
        stops."""
        await receive()  # lifespan.startup
        await asyncio.to_thread(_prepare_embedder)
        buffer_start(every=settings.HELIX_TALLY_SECONDS)
        started = False
        try:
            async with self.mcp.lifespan():
                started = True
                await send({"type": "lifespan.startup.complete"})
                await receive()  # lifespan.shutdown
        except Exception as exc:
            phase = "shutdown" if started else "startup"
            await send({"type": f"lifespan.{phase}.failed", "message": f"MCP transport: {exc!r}"})
            return
        finally:
            await asyncio.to_thread(buffer_stop)
        await send({"type": "lifespan.shutdown.complete"})


def _prepare_embedder() -> None:
    """A model that cannot be loaded is the first write's or search's error (503), as it was:
    the pages and the other tools keep working."""
    try:
        embedder_prepare()
    except ProviderError as exc:
        logger.warning("embedding model not loaded at startup: %s", exc)


application = BodyLimit(PathRouter(django=django_application, mcp=McpHttpApp()))

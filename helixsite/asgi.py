"""The ASGI entry point (``uvicorn helixsite.asgi:application``): ``/mcp`` is the MCP server's
streamable HTTP transport, every other path is Django, as before; the body limit stands in
front of both. While the server runs, the counts calls add to are summed and written about once
a second (``helixsite.tally``)."""

from __future__ import annotations

import asyncio
import logging
import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from starlette.types import ASGIApp, Receive, Scope, Send

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "helixsite.settings.base")
django_application = get_asgi_application()

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

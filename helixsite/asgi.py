"""The ASGI entry point (``uvicorn helixsite.asgi:application``): ``/mcp`` is the MCP server's
streamable HTTP transport, every other path is Django, as before; the body limit stands in
front of both. While the server runs, the counts calls add to are summed and written about once
a second (``helixsite.tally``)."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase
from starlette.types import ASGIApp, Receive, Scope, Send

T = TypeVar("T")


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
        self._idle: list[RequestThread] = []

    async def __call__(
        self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
    ) -> None:
        """As Django's, each request's synchronous work on a thread of its own, but a thread a
        request before it finished with rather than one started for it and stopped after it
        (asgiref's default: 0.35–0.45 ms a request, waiting for the new thread to start, against
        0.05 ms on one kept). A thread still running what a request left (its client went away
        mid-view) is not kept."""
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self._idle.pop() if self._idle else RequestThread()
        async with ThreadSensitiveContext(executor=thread):
            await self.handle(scope, receive, send)
        if thread.idle and len(self._idle) < KEPT_REQUEST_THREADS:
            self._idle.append(thread)
        else:
            thread.shutdown(wait=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


# Threads kept for the next requests: as many as a worker serves at once, at the most.
KEPT_REQUEST_THREADS = 8


class RequestThread(ThreadPoolExecutor):
    """One thread for one request at a time, which knows whether it still runs anything."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self._running = 0
        self._counting = threading.Lock()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._counting:
            self._running += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _: Future) -> None:
        with self._counting:
            self._running -= 1

    @property
    def idle(self) -> bool:
        return self._running == 0


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "helixsite.settings.base")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does
django_application = OneThreadHandler()

from helixsite.agents.mcp.http import McpHttpApp  # noqa: E402 - needs the apps get_asgi_application loaded
from helixsite.body_limit import BodyLimit  # noqa: E402
from helixsite.long_lived import startup_frozen  # noqa: E402
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
        model before it takes its first request, then freezes what it loaded out of the garbage
        collector's passes (``helixsite.long_lived``); the counts summed meanwhile are written as it
        stops."""
        await receive()  # lifespan.startup
        await asyncio.to_thread(_prepare_embedder)
        startup_frozen()
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

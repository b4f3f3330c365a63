"""Writes a call makes that its caller does not wait for.

A search counts an access for each memory it returns, and every tool call adds itself to its
minute's usage row: two writes the answer does not depend on. Served over HTTP by the web
server, they run once the answer has been sent, on a thread of their own, before the server
counts the request as finished (so a shutdown still waits for them). Anywhere else (the test
client, Django's development server, MCP, the worker, a shell) they run at once, as before.

A job that fails is logged and never fails the call: it was answered already.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import connections
from starlette.types import ASGIApp, Receive, Scope, Send

logger = logging.getLogger(__name__)

_pending: contextvars.ContextVar[list[Callable[[], object]] | None] = contextvars.ContextVar(
    "helixsite_after_response", default=None
)
# Two threads a web process: the jobs are a round trip each, and a burst of calls queues them
# here rather than taking a database connection each.
_runner = ThreadPoolExecutor(max_workers=2, thread_name_prefix="after-response")


def after_response(job: Callable[[], object]) -> None:
    """Run ``job`` once the current HTTP answer is sent, or now if there is none."""
    pending = _pending.get()
    if pending is None:
        job()
    else:
        pending.append(job)


class AfterResponse:
    """ASGI wrapper: the jobs a request left run after the app has sent its answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        jobs: list[Callable[[], object]] = []
        mark = _pending.set(jobs)  # the app's threads see this list through their copied context
        try:
            await self.app(scope, receive, send)
        finally:
            _pending.reset(mark)
            if jobs:
                # A fresh context: the jobs' thread gets database connections of its own.
                fresh = contextvars.Context()
                await asyncio.get_running_loop().run_in_executor(_runner, fresh.run, _run, jobs)


def _run(jobs: list[Callable[[], object]]) -> None:
    try:
        for job in jobs:
            try:
                job()
            except Exception:
                logger.exception("a write after the answer failed")
    finally:
        for connection in connections.all(initialized_only=True):
            connection.close()  # back to the pool

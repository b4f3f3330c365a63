"""helixsite.asgi.OneThreadHandler: a request's synchronous work runs on a thread an earlier request
finished with, not on one started for it; a thread still running what a request left is not given
to the next one."""

from __future__ import annotations

import asyncio
import threading

import httpx2
import pytest
from asgiref.sync import sync_to_async
from django.core.signals import request_started

from helixsite.asgi import OneThreadHandler

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_consecutive_requests_run_on_one_kept_thread_and_are_answered_alike():
    handler = OneThreadHandler()
    threads: list[int] = []

    def record(**_) -> None:  # a synchronous receiver: run on the request's thread
        threads.append(threading.get_ident())

    request_started.connect(record)
    try:
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=handler), base_url="http://127.0.0.1") as http:
            answers = [await http.get("/api/v1/whoami") for _ in range(3)]
    finally:
        request_started.disconnect(record)

    assert [a.status_code for a in answers] == [401, 401, 401]
    assert all(a.json()["error"]["code"] == "unauthenticated" for a in answers)
    assert len(threads) == 3 and len(set(threads)) == 1, "one thread for all three"
    assert threading.get_ident() not in threads, "never the event loop's own thread"


async def test_a_thread_still_running_what_a_request_left_is_not_given_to_the_next():
    handler = OneThreadHandler()
    running, release = threading.Event(), threading.Event()
    left: list[asyncio.Task] = []

    def slow_view() -> None:
        running.set()
        release.wait(timeout=60)

    async def leaves_work_running(scope, receive, send) -> None:
        # As a request whose client went away mid-view: its synchronous call goes on without it.
        left.append(asyncio.ensure_future(sync_to_async(slow_view, thread_sensitive=True)()))
        await asyncio.to_thread(running.wait, 60)

    async def finishes(scope, receive, send) -> None:
        await sync_to_async(threading.get_ident, thread_sensitive=True)()

    handler.handle = finishes  # type: ignore[method-assign]
    await handler({"type": "http"}, None, None)
    kept = list(handler._idle)
    handler.handle = leaves_work_running  # type: ignore[method-assign]
    await handler({"type": "http"}, None, None)
    busy_kept = list(handler._idle)
    release.set()
    await left[0]

    assert len(kept) == 1, "a thread whose request finished is kept"
    assert busy_kept == [], "the thread still running the left view is not kept"
    with pytest.raises(ValueError):
        await handler({"type": "websocket"}, None, None)

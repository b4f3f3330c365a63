"""Files answered under ASGI (the server ``make run`` starts) one block at a time.

Django's ASGI handler consumes a streaming answer with a synchronous iterator, such as a
``FileResponse``, by reading it whole into a list first (and logs "StreamingHttpResponse must
consume synchronous iterators" at the first one of each process): a static file costs its size
in memory, a backup's download the size of the archive. Served here, the same blocks are read
one at a time on a worker thread and sent as they come. Under WSGI (the test server) an answer
is left as it is: there the synchronous iterator is the one that streams."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import TypeVar

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, StreamingHttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware

Streamed = TypeVar("Streamed", bound=StreamingHttpResponse)


async def _in_thread(blocks: Iterable[bytes]) -> AsyncIterator[bytes]:
    iterator = iter(blocks)
    step = sync_to_async(next, thread_sensitive=False)
    while (block := await step(iterator, None)) is not None:
        yield block


def streamed(request: HttpRequest, response: Streamed) -> Streamed:
    """``response``, whose blocks an ASGI server reads one at a time rather than all first."""
    if isinstance(request, ASGIRequest) and not response.is_async:
        response.streaming_content = _in_thread(response.streaming_content)
    return response


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, its files streamed under ASGI."""

    @staticmethod
    def serve(static_file, request):  # type: ignore[no-untyped-def]
        return streamed(request, WhiteNoiseMiddleware.serve(static_file, request))

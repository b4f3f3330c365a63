"""Under ASGI a file is answered a block at a time, never read whole into memory first (Django
does that, with a warning in the server's log, for an answer whose iterator is synchronous)."""

from __future__ import annotations

import asyncio
import warnings

import pytest
from django.http import FileResponse
from django.test import AsyncClient, AsyncRequestFactory, RequestFactory

from helixsite.streaming import streamed


async def _read(response) -> list[bytes]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Django's "must consume synchronous iterators" would raise
        return [block async for block in response]


def test_a_file_is_streamed_block_by_block_under_asgi_without_the_warning(tmp_path):
    data = bytes(range(256)) * 64  # four blocks of FileResponse's 4,096 bytes
    path = tmp_path / "archive.dump"
    path.write_bytes(data)
    response = streamed(AsyncRequestFactory().get("/download"), FileResponse(path.open("rb")))

    assert response.is_async
    blocks = asyncio.run(_read(response))
    assert b"".join(blocks) == data and len(blocks) == 4
    response.close()


def test_under_wsgi_the_file_answer_is_left_as_it_is(tmp_path):
    path = tmp_path / "archive.dump"
    path.write_bytes(b"x" * 10)
    answer = FileResponse(path.open("rb"))
    assert streamed(RequestFactory().get("/download"), answer) is answer and not answer.is_async
    assert b"".join(answer.streaming_content) == b"x" * 10
    answer.close()


@pytest.mark.django_db(transaction=True)
def test_a_static_file_is_streamed_under_asgi():
    async def fetch():
        response = await AsyncClient().get("/static/stewardship/room.css", HTTP_HOST="localhost")
        return response, await _read(response)

    response, blocks = asyncio.run(fetch())
    assert response.status_code == 200 and response.is_async
    assert b"The control room" in b"".join(blocks)

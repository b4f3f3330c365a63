"""add_document's and add_conversation's paths take a body as large as a document or an exchange in
JSON; every other path keeps HELIX_MAX_BODY_BYTES."""

from __future__ import annotations

import json

import pytest
from starlette.types import Message, Receive, Scope, Send

from helixsite.body_limit import BodyLimit


async def status_of(path: str, length: int) -> tuple[int, dict | None]:
    sent: list[Message] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def receive() -> Message:
        return {"type": "http.request", "body": b"x" * length, "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    headers = [(b"content-length", str(length).encode())]
    await BodyLimit(app)({"type": "http", "method": "POST", "path": path, "headers": headers}, receive, send)
    body = json.loads(sent[1]["body"])
    return sent[0]["status"], body.get("error")


@pytest.mark.anyio
async def test_add_document_accepts_a_body_over_the_general_limit_within_its_own(settings):
    settings.HELIX_MAX_BODY_BYTES = 4096
    settings.HELIX_MAX_DOCUMENT_BODY_BYTES = 20_000

    document = await status_of("/api/v1/add_document", 10_000)
    memory = await status_of("/api/v1/add_memory", 10_000)
    mcp = await status_of("/mcp", 10_000)
    too_large = await status_of("/api/v1/add_document", 20_001)

    assert document == (200, None)
    assert memory[0] == mcp[0] == 413 and memory[1]["limit"] == 4096
    assert too_large == (
        413,
        {"code": "payload_too_large", "message": "The request body is larger than 20000 bytes.", "limit": 20000},
    )


@pytest.mark.anyio
async def test_add_conversation_accepts_a_body_over_the_general_limit_within_its_own(settings):
    settings.HELIX_MAX_BODY_BYTES = 4096
    settings.HELIX_MAX_CONVERSATION_BODY_BYTES = 20_000

    conversation = await status_of("/api/v1/add_conversation", 10_000)
    memory = await status_of("/api/v1/add_memory", 10_000)
    too_large = await status_of("/api/v1/add_conversation", 20_001)

    assert conversation == (200, None)
    assert memory[0] == 413
    assert too_large[0] == 413 and too_large[1]["limit"] == 20_000

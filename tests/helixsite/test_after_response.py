"""Served by the web server, a search's answer is sent before the writes it does not wait for:
the access counts of the memories it returns and the tool's usage minute. They are written before
the server counts the request finished; anywhere else (the test client, MCP) they are written
within the call, as before."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.db import connections

from helixsite.after_response import AfterResponse, after_response
from helixsite.agents.models import CallMinute
from helixsite.asgi import django_application
from memory.models import MemoryAccess
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import bearer_client, grant, make_agent_with_token, make_memory, make_workspace


@pytest.fixture
def searcher(transactional_db):
    """An agent with a token and one memory to find, committed: the app answers from its threads."""
    principal, token = make_agent_with_token("scout")
    workspace = make_workspace("team")
    grant(principal, workspace, Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    memory = make_memory(
        author=principal,
        domain=domain,
        content="Bob's favourite tea is a smoky lapsang souchong.",
        user_id="bob",
        embed=True,
    )
    return token.raw, memory


def counted() -> tuple[int, int]:
    """(accesses counted, search_memory calls counted), read on a connection of this thread's own."""
    try:
        accesses = sum(MemoryAccess.objects.values_list("access_count", flat=True))
        calls = sum(CallMinute.objects.filter(tool="search_memory").values_list("calls", flat=True))
        return accesses, calls
    finally:
        connections.close_all()


async def search_over_asgi(token: str) -> tuple[dict, tuple[int, int]]:
    """The answer, and what was counted at the moment its last byte was sent."""
    body = json.dumps({"actor_id": "scout", "user_id": "bob", "query": "what tea does Bob like?"}).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/v1/search_memory",
        "raw_path": b"/api/v1/search_memory",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"authorization", f"Bearer {token}".encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    requests = [{"type": "http.request", "body": body, "more_body": False}]
    chunks: list[bytes] = []
    at_answer: list[tuple[int, int]] = []

    async def receive():
        if requests:
            return requests.pop()
        await asyncio.Event().wait()  # the client stays: no disconnect

    async def send(message):
        if message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                at_answer.append(await asyncio.to_thread(counted))

    await AfterResponse(django_application)(scope, receive, send)
    return json.loads(b"".join(chunks)), at_answer[0]


def test_the_answer_is_sent_before_the_counts_and_they_are_written_before_the_request_ends(searcher):
    token, memory = searcher

    answer, at_answer = asyncio.run(search_over_asgi(token))

    assert [r["id"] for r in answer["results"]] == [str(memory.id)]
    assert at_answer == (0, 0), "nothing counted yet when the caller had the answer"
    assert counted() == (1, 1), "both counted once the request was over"


def test_over_the_test_client_the_counts_are_written_within_the_call(searcher):
    token, memory = searcher

    response = bearer_client(token).post(
        "/api/v1/search_memory",
        {"actor_id": "scout", "user_id": "bob", "query": "what tea does Bob like?"},
        content_type="application/json",
    )

    assert response.status_code == 200 and response.json()["count"] == 1
    assert counted() == (1, 1)


def test_a_job_that_fails_after_the_answer_is_logged_and_the_next_still_runs(caplog):
    ran: list[str] = []

    def failing():
        raise RuntimeError("the counter's table is locked")

    async def app(scope, receive, send):
        after_response(failing)
        after_response(lambda: ran.append("second"))
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def send(message):
        ran.append(message["type"])

    asyncio.run(AfterResponse(app)({"type": "http"}, None, send))

    assert ran == ["http.response.start", "http.response.body", "second"]
    assert "a write after the answer failed" in caplog.text

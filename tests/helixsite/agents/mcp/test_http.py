"""MCP over streamable HTTP at /mcp: uvicorn serving helixsite.asgi with two web workers, as
`make run` does, driven by the SDK's HTTP client (one server for the module)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.helixsite.agents.mcp.conftest import (
    ROOT,
    World,
    answer,
    assert_committed_only_after_commit,
    free_port,
    server_env,
    think_then_commit,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

UNAUTHENTICATED = {"code": "unauthenticated", "message": "Authentication credentials were not provided."}

# A web worker that has not answered yet loads the embedding model on its first search: on a
# busy machine that takes seconds. Waits are bounded generously, never by how fast things run.
HTTP = httpx2.Client(timeout=120)


@pytest.fixture(scope="module")
def base_url(django_db_setup):
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "helixsite.web",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                "2",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=server_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_serving(f"{base}/mcp", process)
            yield base
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # a worker still left
            log.seek(0)
            print(log.read())  # the server's log, shown when a test fails


def _wait_until_serving(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, "uvicorn exited"
        with contextlib.suppress(httpx2.TransportError):
            if HTTP.post(url, json={}).status_code == 401:
                return
        time.sleep(0.3)
    raise AssertionError("the web server did not answer on /mcp")


def mcp_client(base: str, token: str, **options) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    return Client(streamable_http_client(f"{base}/mcp", http_client=http), read_timeout_seconds=120, **options)


@pytest.mark.anyio
async def test_a_memory_added_over_http_is_found_by_mcp_and_rest_search(base_url, world: World):
    async with mcp_client(base_url, world.writer_token) as client:
        added = answer(
            await client.call_tool(
                "add_memory",
                {"actor_id": "writer", "user_id": "bob", "group_id": "team", "message": "Bob sails a red dinghy."},
            )
        )
        found = answer(
            await client.call_tool("search_memory", {"actor_id": "writer", "user_id": "bob", "query": "boat"})
        )
        impostor = await client.call_tool("search_memory", {"actor_id": "reader", "user_id": "bob", "query": "boat"})
    rest = HTTP.post(
        f"{base_url}/api/v1/search_memory",
        json={"actor_id": "writer", "user_id": "bob", "query": "boat"},
        headers={"Authorization": f"Bearer {world.writer_token}"},
    )

    memory_id = added["memory_ids"][0]
    assert found["results"][0]["id"] == memory_id
    assert rest.status_code == 200 and rest.json()["results"][0]["id"] == memory_id
    assert impostor.is_error and answer(impostor)["error"]["code"] == "actor_mismatch"


@pytest.mark.anyio
async def test_an_exchange_added_in_one_mcp_call_is_found_and_a_bad_message_is_named(base_url, world: World):
    messages = [
        {"role": "assistant", "content": "What does Bob sail?"},
        {"role": "user", "content": "A red dinghy, on the lake most weekends."},
    ]
    async with mcp_client(base_url, world.writer_token) as client:
        added = answer(
            await client.call_tool(
                "add_conversation",
                {"actor_id": "writer", "user_id": "bob", "group_id": "team", "messages": messages, "extract": False},
            )
        )
        found = answer(
            await client.call_tool("search_memory", {"actor_id": "writer", "user_id": "bob", "query": "boat"})
        )
        refused = await client.call_tool(
            "add_conversation",
            {"actor_id": "writer", "user_id": "bob", "group_id": "team", "messages": [{"role": "user"}]},
        )

    assert [len(r["memory_ids"]) for r in added["results"]] == [1, 1]
    assert added["results"][1]["memory_ids"][0] in [r["id"] for r in found["results"][:2]]
    assert refused.is_error and answer(refused)["error"]["field"] == "messages[0].content"


@pytest.mark.anyio
async def test_a_host_speaking_the_2025_protocol_is_served_too(base_url, world: World):
    async with mcp_client(base_url, world.writer_token, mode="legacy") as client:
        tools = await client.list_tools()
        rules = await client.read_resource("memory://rules")
        listed = answer(await client.call_tool("list_memories", {"actor_id": "writer", "user_id": "bob"}))

    assert "add_memory" in {tool.name for tool in tools.tools}
    assert "Nothing is destroyed silently" in rules.contents[0].text
    assert listed == {"ok": True, "memories": [], "count": 0, "next_cursor": None}


@pytest.mark.parametrize(
    "authorization, error",
    [
        (None, UNAUTHENTICATED),
        ("Bearer hxt_0000_not-a-token", {"code": "unauthenticated", "message": "Invalid or revoked token."}),
        ("revoked", {"code": "unauthenticated", "message": "Invalid or revoked token."}),
    ],
    ids=["no token", "invalid token", "revoked token"],
)
def test_without_a_valid_token_mcp_answers_401_like_rest(base_url, world: World, authorization, error):
    if authorization == "revoked":
        authorization = f"Bearer {world.revoked_token}"
    headers = {"Authorization": authorization} if authorization else {}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}

    mcp = HTTP.post(f"{base_url}/mcp", json=initialize, headers=headers)
    rest = HTTP.post(f"{base_url}/api/v1/search_memory", json={"actor_id": "writer", "query": "x"}, headers=headers)

    assert mcp.status_code == rest.status_code == 401
    assert mcp.json() == rest.json() == {"ok": False, "error": error}
    assert mcp.headers["www-authenticate"] == rest.headers["www-authenticate"] == "Bearer"


def test_a_foreign_host_or_web_origin_is_refused_before_the_token_is_looked_at(base_url, world: World):
    auth = {"Authorization": f"Bearer {world.writer_token}"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}

    rebound = HTTP.post(f"{base_url}/mcp", json=body, headers={**auth, "Host": "attacker.example"})
    cross_site = HTTP.post(f"{base_url}/mcp", json=body, headers={**auth, "Origin": "https://attacker.example"})

    assert rebound.status_code == 400 and rebound.json()["error"]["code"] == "disallowed_host"
    assert cross_site.status_code == 403 and cross_site.json()["error"]["code"] == "forbidden_origin"


def test_a_host_asking_for_a_server_to_client_stream_is_told_there_is_none(base_url, world: World):
    stream = HTTP.get(
        f"{base_url}/mcp", headers={"Authorization": f"Bearer {world.writer_token}", "Accept": "text/event-stream"}
    )

    assert stream.status_code == 405 and stream.headers["allow"] == "POST"
    assert stream.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.anyio
async def test_a_session_thinks_then_commits_over_http(base_url, world: World):
    async with mcp_client(base_url, world.writer_token) as client:
        flow = await think_then_commit(client)

    assert_committed_only_after_commit(flow)

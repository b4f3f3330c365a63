"""`manage.py mcp`: the MCP server over stdio in a subprocess, driven by the SDK's stdio client
as an MCP host would (one server process for the module)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from helixsite.agents.catalogue import tools_by_name
from tests.helixsite.agents.mcp.conftest import (
    ROOT,
    WRITER_TOKEN,
    answer,
    assert_committed_only_after_commit,
    build_world,
    flush,
    in_database,
    server_env,
    think_then_commit,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
async def client(django_db_setup, django_db_blocker):
    """One server process for the module. It checks its token at start, so the token's rows
    exist then; each test then builds its own (the same raw token) and flushes them."""
    await anyio.to_thread.run_sync(in_database, django_db_blocker, build_world)
    params = StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp"], cwd=ROOT, env=server_env(HELIX_MCP_TOKEN=WRITER_TOKEN[0])
    )
    with tempfile.TemporaryFile("w+") as errlog:
        try:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120) as connected:
                await anyio.to_thread.run_sync(in_database, django_db_blocker, flush)
                yield connected
        finally:
            errlog.seek(0)
            print(errlog.read())  # the server's log, shown when a test fails


@pytest.mark.anyio
async def test_a_host_sees_every_tool_two_prompts_and_three_resources_as_the_config_advertises(client, world):
    tools = [tool.name for tool in (await client.list_tools()).tools]
    prompts = [prompt.name for prompt in (await client.list_prompts()).prompts]
    resources = [str(resource.uri) for resource in (await client.list_resources()).resources]
    config = json.loads((await client.read_resource("config://helixsite")).contents[0].text)

    assert tools == list(tools_by_name())
    assert prompts == ["memory_summary", "tool_selection_guide"]
    assert resources == ["config://helixsite", "status://database", "memory://rules"]
    assert (config["tools"]["names"], config["prompts"]["names"], config["resources"]["uris"]) == (
        tools,
        prompts,
        resources,
    )


@pytest.mark.anyio
async def test_a_memory_added_over_stdio_is_found_by_search(client, world):
    added = answer(
        await client.call_tool(
            "add_memory",
            {"actor_id": "writer", "user_id": "bob", "group_id": "team", "message": "Bob keeps his bees in Lisbon."},
        )
    )
    found = answer(
        await client.call_tool(
            "search_memory", {"actor_id": "writer", "user_id": "bob", "query": "where are the bees?"}
        )
    )

    assert added["ok"] is True and len(added["memory_ids"]) == 1
    assert found["results"][0]["id"] == added["memory_ids"][0]
    assert "Lisbon" in found["results"][0]["content"]


@pytest.mark.anyio
async def test_acting_as_another_principal_is_a_tool_error_with_code_actor_mismatch(client, world):
    result = await client.call_tool("search_memory", {"actor_id": "reader", "user_id": "bob", "query": "bees"})

    assert result.is_error
    assert answer(result) == {
        "ok": False,
        "error": {
            "code": "actor_mismatch",
            "message": "actor_id must be the principal the token belongs to.",
            "field": "actor_id",
        },
    }


@pytest.mark.anyio
async def test_bad_parameters_are_a_tool_error_naming_the_field(client, world):
    missing = await client.call_tool("add_memory", {"actor_id": "writer", "user_id": "bob"})
    misspelt = await client.call_tool(
        "search_memory", {"actor_id": "writer", "user_id": "bob", "query": "x", "limt": 3}
    )

    assert missing.is_error and misspelt.is_error
    assert answer(missing)["error"] == {
        "code": "required",
        "message": "This field is required.",
        "field": "message",
        "fields": {"message": ["This field is required."]},
    }
    assert answer(misspelt)["error"]["code"] == "unknown_parameter"
    assert answer(misspelt)["error"]["field"] == "limt"


@pytest.mark.anyio
async def test_the_summary_prompt_names_the_caller_and_the_calls_to_make(client, world):
    prompt = await client.get_prompt("memory_summary", {"user_id": "bob", "topic": "bees"})

    text = prompt.messages[0].content.text
    assert text.startswith("Summarize what Helixsite remembers about bob concerning bees.")
    assert '`search_memory(actor_id="writer", user_id="bob", query="bees", mode="deep")`' in text


@pytest.mark.parametrize(
    "token, error",
    [
        (None, "CommandError: no API token: set HELIX_MCP_TOKEN (or pass --token)"),
        ("hxt_0000_not-a-token", "CommandError: the API token was refused: Invalid or revoked token."),
        ("revoked", "CommandError: the API token was refused: Invalid or revoked token."),
    ],
    ids=["missing", "invalid", "revoked"],
)
def test_a_server_without_a_valid_token_does_not_start_and_says_why_in_one_line(world, token, error):
    if token == "revoked":
        token = world.revoked_token
    result = subprocess.run(
        [sys.executable, "manage.py", "mcp"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=server_env(**({"HELIX_MCP_TOKEN": token} if token else {})),
    )

    assert result.returncode == 1
    assert result.stderr.strip() == error
    assert result.stdout == ""


def test_a_server_whose_database_is_unreachable_does_not_start_and_says_why_in_one_line():
    env = {**server_env(HELIX_MCP_TOKEN=WRITER_TOKEN[0]), "DATABASE_URL": "postgres://helix:pw@127.0.0.1:9/helix"}
    result = subprocess.run(
        [sys.executable, "manage.py", "mcp"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=env,
    )

    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("CommandError: the database is unreachable: ")


@pytest.mark.anyio
async def test_a_session_thinks_then_commits_over_stdio(client, world):
    flow = await think_then_commit(client)

    assert_committed_only_after_commit(flow)

"""The MCP server against the test database: principals with tokens, committed so that a server
running in a subprocess sees them, and how to start such a subprocess."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import mcp_types as types
import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from rbac.models import ApiToken, Role
from rbac.tokens import token_generate
from tests.factories import grant, make_principal, make_workspace

ROOT = Path(__file__).resolve().parents[4]


# Fixed for the whole run: a server process started once per module keeps authenticating with
# the same raw token while each test builds (and its flush removes) the rows behind it.
WRITER_TOKEN = token_generate()
REVOKED_TOKEN = token_generate()


@dataclass
class World:
    writer_token: str  # a worker in the workspace "team"
    revoked_token: str  # the token of "departed", revoked


def build_world() -> World:
    """Principals and tokens, committed: a server in a subprocess sees only committed rows."""
    team = make_workspace("team")
    writer = make_principal("writer")
    grant(writer, team, Role.WORKER)
    make_principal("reader")
    departed = make_principal("departed")
    for user, (_, prefix, digest) in ((writer.user, WRITER_TOKEN), (departed.user, REVOKED_TOKEN)):
        ApiToken.objects.create(user=user, name="test", prefix=prefix, digest=digest)
    ApiToken.objects.filter(user=departed.user).update(revoked_at=timezone.now())
    return World(writer_token=WRITER_TOKEN[0], revoked_token=REVOKED_TOKEN[0])


@pytest.fixture
def world(transactional_db) -> World:
    return build_world()


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def in_database(django_db_blocker, function: Callable[[], Any]) -> Any:
    """Run ``function`` with database access, outside any test (for module-scoped fixtures)."""
    with django_db_blocker.unblock():
        try:
            return function()
        finally:
            connections.close_all()


def flush() -> None:
    """Empty the test database, as the end of a transactional test does."""
    call_command("flush", interactive=False, verbosity=0)


def server_env(**extra: str) -> dict[str, str]:
    """The environment of a server process on the test database (embedded, or DATABASE_URL's server)."""
    name = connection.settings_dict["NAME"]
    env = {k: v for k, v in os.environ.items() if k != "HELIX_MCP_TOKEN"}
    if env.get("DATABASE_URL"):
        env["DATABASE_URL"] = urlsplit(env["DATABASE_URL"])._replace(path=f"/{name}").geturl()
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "helixsite.settings.base",
            "HELIX_DB_NAME": name,
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "PYTHONUNBUFFERED": "1",
        },
        **extra,
    )
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answer(result: types.CallToolResult) -> dict[str, Any]:
    """A tool result's JSON, checked to be the same in its text and its structured content."""
    assert len(result.content) == 1 and result.content[0].type == "text"
    parsed = json.loads(result.content[0].text)
    assert parsed == result.structured_content
    return parsed


async def think_then_commit(client: Any) -> dict[str, Any]:
    """An agent's session over MCP: add → search → think_start … think_commit → search."""

    async def call(tool: str, **arguments: Any) -> dict[str, Any]:
        return answer(await client.call_tool(tool, {"actor_id": "writer", **arguments}))

    await call("add_memory", user_id="ops", group_id="team", message="Staging deploys run on Fridays.")
    first = await call("search_memory", user_id="ops", query="when does staging deploy")
    await call("think_start", session_id="plan", initial_thought="When should db-7 move?")
    await call("think_add", session_id="plan", content="Moves are safest with a deploy.", thought_type="hypothesis")
    recalled = await call("think_recall", session_id="plan", query="staging deploy day", parent_idx=1, user_id="ops")
    during = await call("search_memory", user_id="ops", query="move db-7 on Friday")
    evidence = [t["idx"] for t in recalled["recalled"]]
    await call("think_conclude", session_id="plan", conclusion="Move db-7 on Friday.", supporting_idx=evidence)
    committed = await call("think_commit", session_id="plan", user_id="ops", group_id="team")
    after = await call("search_memory", user_id="ops", query="when should db-7 move")
    return {"first": first, "during": during, "committed": committed, "after": after}


def assert_committed_only_after_commit(flow: dict[str, Any]) -> None:
    assert "Fridays" in flow["first"]["results"][0]["content"]
    during = [r["content"] for r in flow["during"]["results"]]
    assert any("Fridays" in c for c in during), "search finds what is stored"
    assert not any("Move db-7" in c for c in during), "but nothing before the commit"
    assert flow["committed"]["session"]["state"] == "committed" and flow["committed"]["supported_by"]
    assert flow["after"]["results"][0]["id"] == flow["committed"]["memory_id"]

"""A failure nobody expected (a bug of ours) is answered 500 ``internal_error`` in the API's error
shape, over REST and MCP alike, with an incident id the caller can quote and nothing of the
exception's text; the traceback is logged under that incident id."""

from __future__ import annotations

import json
import logging

import httpx2
import pytest

import rbac.api
from helixsite.agents.mcp.http import McpHttpApp
from helixsite.asgi import PathRouter, django_application
from tests.factories import bearer_client, make_agent_with_token

SECRET = "relation tenant_b.private_notes does not exist"


@pytest.fixture
def scout_token(transactional_db) -> str:
    """An agent's token, committed: the MCP app answers from a thread of its own."""
    return make_agent_with_token("scout")[1].raw


@pytest.fixture
def broken_list_users(monkeypatch):
    def broken(**_):
        raise RuntimeError(SECRET)

    monkeypatch.setattr(rbac.api, "users_list", broken)


def incident_logged(caplog, incident: str) -> logging.LogRecord:
    (record,) = [r for r in caplog.records if r.exc_info and r.exc_info[0]]  # one traceback, logged once
    assert (record.name, record.levelname) == ("helixsite.errors", "ERROR")
    assert incident in record.getMessage()
    assert record.exc_info is not None and SECRET in str(record.exc_info[1]), "the cause is in the log"
    return record


def test_rest_answers_500_internal_error_with_an_incident_id_and_logs_the_traceback(db, broken_list_users, caplog):
    agent = bearer_client(make_agent_with_token("scout")[1].raw)

    with caplog.at_level(logging.INFO):
        response = agent.post("/api/v1/list_users", {"actor_id": "scout"}, content_type="application/json")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert response.json()["ok"] is False
    assert error["code"] == "internal_error"
    assert len(error["incident"]) == 12
    assert error["incident"] in error["message"]
    assert SECRET not in response.content.decode() and "RuntimeError" not in response.content.decode()
    incident_logged(caplog, error["incident"])


@pytest.mark.anyio
async def test_mcp_answers_the_same_error_as_a_tool_result_not_the_exception_text(
    scout_token, broken_list_users, caplog
):
    token = scout_token
    mcp = McpHttpApp()
    app = PathRouter(django=django_application, mcp=mcp)
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "list_users", "arguments": {"actor_id": "scout"}},
    }

    with caplog.at_level(logging.INFO):
        async with (
            mcp.lifespan(),
            httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1") as http,
        ):
            response = await http.post("/mcp", json=call, headers=headers)

    assert response.status_code == 200
    assert SECRET not in response.text
    result = response.json()["result"]
    assert result["isError"] is True
    answer = json.loads(result["content"][0]["text"])
    assert answer["ok"] is False and answer["error"]["code"] == "internal_error"
    incident_logged(caplog, answer["error"]["incident"])


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"

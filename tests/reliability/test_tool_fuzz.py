"""Every tool the server advertises, called over the wire on both transports (REST at
/api/v1/<tool> and MCP tools/call at /mcp) with arguments generated from its advertised input
schema: no call gets a server error, and every refusal by a tool is the one error shape.

The in-process schemathesis run (tests/helixsite/agents/rest/test_schemathesis.py) checks REST
answers against the OpenAPI document; this is its counterpart against the server as deployed
(uvicorn, two web workers) and over MCP. The examples are derandomized: the same calls every run.
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from helixsite.agents.catalogue import tool_classes
from memory.models import Memory
from tests.reliability.conftest import TIMEOUT, Server, answer_of
from tests.reliability.tool_arguments import JSON, tool_arguments

pytestmark = pytest.mark.slow

EXAMPLES = 15  # per tool, each sent over REST and over MCP
SENTENCES = [
    "Bob sails a red dinghy on Sundays.",
    "The staging cluster moved to rack 14 on 2026-03-02.",
    "Ops prefers deploys before noon.",
    "when does staging deploy",
    "Bob's favourite colour is green.",
]
REQUEST_IDS = itertools.count(1)
HTTP = httpx2.Client(timeout=TIMEOUT)  # keep-alive connections, shared by both sending threads
DATES = ["2026-01-01T00:00:00Z", "2026-11-30", "2025-06-01T12:00:00+02:00", "0001-01-01T00:00:00Z", "2026-02-30"]


@dataclass
class Tally:
    rest: Counter[int] = field(default_factory=Counter)
    mcp: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def test_generated_calls_on_both_transports_never_get_a_server_error(server: Server):
    tools = _advertised_tools(server)
    assert sorted(tools) == sorted(tool.tool for tool in tool_classes())
    plausible = _plausible(_seed(server))
    before, tally = Memory.objects.count(), Tally()

    with ThreadPoolExecutor(max_workers=2) as both:
        for name, schema in tools.items():
            _fuzz(server, name, tool_arguments(schema, plausible), both=both, tally=tally)

    calls = sum(tally.rest.values()) + sum(tally.mcp.values())
    print(
        f"\ntool fuzz: {len(tools)} tools x {EXAMPLES} generated calls x 2 transports = {calls} calls; "
        f"REST responses {dict(sorted(tally.rest.items()))}; MCP answers {dict(sorted(tally.mcp.items()))}; "
        f"memory rows before {before}, after {Memory.objects.count()}; problems {len(tally.problems)}"
    )
    assert tally.problems == [], "\n".join(tally.problems[:20])


def _fuzz(server: Server, tool: str, arguments: st.SearchStrategy, *, both: ThreadPoolExecutor, tally: Tally) -> None:
    """``EXAMPLES`` calls of ``tool``, each sent over both transports at once."""

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(drawn=arguments)
    def call(drawn: Any) -> None:
        rest, mcp = both.submit(_rest_call, server, tool, drawn), both.submit(_mcp_call, server, tool, drawn)
        _check_rest(tally, tool, drawn, rest.result())
        _check_mcp(tally, tool, drawn, mcp.result())

    call()


# --- the two transports ------------------------------------------------------------------------


def _body(value: Any) -> bytes:
    # ASCII escapes: a lone surrogate travels as \ud800, which a JSON parser reads back as one.
    return json.dumps(value).encode()


def _rest_call(server: Server, tool: str, arguments: Any) -> httpx2.Response:
    return HTTP.post(
        f"{server.base}/api/v1/{tool}",
        content=_body(arguments),
        headers={"Authorization": f"Bearer {server.token}", "Content-Type": "application/json"},
    )


def _mcp_call(server: Server, tool: str, arguments: Any) -> httpx2.Response:
    message = {
        "jsonrpc": "2.0",
        "id": next(REQUEST_IDS),
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }
    return _mcp_post(server, message)


def _mcp_post(server: Server, message: dict[str, Any]) -> httpx2.Response:
    return HTTP.post(
        f"{server.base}/mcp",
        content=_body(message),
        headers={
            "Authorization": f"Bearer {server.token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )


def _is_error_shape(body: Any) -> bool:
    """``{"ok": false, "error": {"code": str, "message": str, ...}}``"""
    error = body.get("error") if isinstance(body, dict) else None
    return (
        body.get("ok") is False
        and isinstance(error, dict)
        and isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
    )


def _check_rest(tally: Tally, tool: str, arguments: Any, response: httpx2.Response) -> None:
    tally.rest[response.status_code] += 1
    body = answer_of(response)
    if response.status_code >= 500:
        problem = "server error"
    elif response.status_code >= 400 and not _is_error_shape(body):
        problem = "refusal not in the error shape"
    elif response.status_code < 400 and not (isinstance(body, dict) and body.get("ok") is True):
        problem = "success without ok: true"
    else:
        return
    tally.problems.append(f"REST {tool} {response.status_code} {problem}: {_short(arguments)} -> {_short(body)}")


def _check_mcp(tally: Tally, tool: str, arguments: Any, response: httpx2.Response) -> None:
    body = answer_of(response)
    outcome, problem = _mcp_outcome(response.status_code, body)
    tally.mcp[outcome] += 1
    if problem:
        tally.problems.append(f"MCP {tool} {response.status_code} {problem}: {_short(arguments)} -> {_short(body)}")


def _mcp_outcome(status: int, body: Any) -> tuple[str, str | None]:
    """How the call ended ("result", "tool error", "invalid params"…) and what is wrong with it, if anything."""
    if status >= 500 or not isinstance(body, dict):
        return f"HTTP {status}", "server error or not JSON"
    if "error" in body:
        code = body["error"].get("code")
        # Neither reaches a tool, and the protocol refuses them in its own error object: the MCP
        # transport's JSON parser rejects a lone surrogate escape outright (-32700; REST reads it
        # and answers 400 invalid_characters), and arguments that are not an object (-32602).
        refused = code in (-32700, -32602) and isinstance(body["error"].get("message"), str)
        return f"JSON-RPC {code}", None if refused and status < 500 else "JSON-RPC error other than a refusal"
    result = body.get("result", {})
    if not result.get("isError"):
        return "result", None if result.get("structuredContent", {}).get("ok") is True else "result without ok: true"
    structured = result.get("structuredContent")
    text = result.get("content", [{}])[0].get("text", "")
    if not _is_error_shape(structured) or json.loads(text) != structured:
        return "tool error", "tool error not in the error shape"
    return "tool error", None


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) < 400 else f"{text[:400]}…"


# --- what the calls name --------------------------------------------------------------------------


def _advertised_tools(server: Server) -> dict[str, dict[str, Any]]:
    listed = _mcp_post(server, {"jsonrpc": "2.0", "id": 0, "method": "tools/list", "params": {}}).json()
    return {tool["name"]: tool["inputSchema"] for tool in listed["result"]["tools"]}


def _seed(server: Server) -> list[str]:
    """A few memories (one contradicting another) and a FastThink session the calls can name."""
    ids = []
    for message in ("Bob's favourite colour is blue.", "Bob's favourite colour is red.", SENTENCES[0]):
        answer = server.call("add_memory", user_id="bob", group_id="team", message=message).json()
        ids += answer["memory_ids"] + answer["deduped"]
    assert server.call("think_start", session_id="plan", initial_thought="When should db-7 move?").status_code == 200
    return ids


def _plausible(memory_ids: list[str]) -> dict[str, st.SearchStrategy]:
    """By parameter name: values that name the caller, its workspaces and what is stored."""
    memory = st.sampled_from([*memory_ids, str(uuid.UUID(int=0))])
    text = st.sampled_from(SENTENCES)
    return {
        "actor_id": st.just("writer"),
        "user_id": st.sampled_from(["bob", "ops"]),
        "group_id": st.sampled_from(["team", "team", "default", "onboarding", "gone"]),
        "memory_id": memory,
        "from_id": memory,
        "to_id": memory,
        "session_id": st.sampled_from(["plan", "scratch"]),
        **dict.fromkeys(
            ["message", "content", "new_content", "query", "query_a", "query_b", "initial_thought", "conclusion"], text
        ),
        **dict.fromkeys(["reason", "status"], st.sampled_from(["checked with ops", "idle"])),
        **dict.fromkeys(["occurred_at", "time_from", "time_to"], st.sampled_from(DATES)),
        "mode": st.sampled_from(["recent", "contextual", "deep", "full"]),
        **dict.fromkeys(["agent_id", "parent_agent_id"], st.sampled_from(["agent-1", "agent-2"])),
        "metadata": st.dictionaries(st.text(max_size=12), JSON, max_size=4),
        "context": st.just({"turns": [{"role": "user", "content": "Bob asked about his boat."}]}),
        "concept_type": st.sampled_from(["preference", "skill", "goal", "fact"]),
        "tags": st.lists(st.sampled_from(["ops", "home"]), max_size=3),
    }

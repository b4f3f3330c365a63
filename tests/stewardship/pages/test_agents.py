"""The agents page shows the live roster (subagents under their root) and the FastThink sessions
still running, as agents reported them through the API."""

from __future__ import annotations

import re

import pytest

from rbac.models import Principal, Role
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def test_roster_and_thinking_sessions_as_agents_reported_them(client):
    client.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)
    codex, issued = make_agent_with_token("codex")
    grant(codex, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)

    def call(tool: str, **body) -> None:
        answer = api.post(f"/api/v1/{tool}", {"actor_id": "codex", **body}, format="json")
        assert answer.status_code == 200, answer.content

    call("agent_heartbeat", agent_id="codex-main", status="planning")
    call("agent_heartbeat", agent_id="codex-sub-1", parent_agent_id="codex-main", status="reading")
    call("think_start", session_id="plan-migration", initial_thought="Which day suits the migration?")

    html = client.get("/steward/agents/").content.decode()

    roster = html[html.index('class="roster"') : html.index('id="think-title"')]
    assert roster.index("codex-main") < roster.index("codex-sub-1"), "the subagent follows its root"
    assert 'class="subagent active"' in roster and "planning" in roster and "reading" in roster
    assert "FastThink sessions in progress (1)" in html and "plan-migration" in html


def test_the_roster_and_sessions_give_times_as_the_room_does(client):
    client.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)
    codex, issued = make_agent_with_token("codex")
    grant(codex, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    for tool, body in (
        ("agent_heartbeat", {"agent_id": "codex-main", "status": "planning"}),
        ("agent_heartbeat", {"agent_id": "codex-sub-1", "parent_agent_id": "codex-main", "status": "reading"}),
        ("think_start", {"session_id": "plan-migration", "initial_thought": "Which day suits the migration?"}),
    ):
        assert api.post(f"/api/v1/{tool}", {"actor_id": "codex", **body}, format="json").status_code == 200

    html = client.get("/steward/agents/").content.decode()

    roster = html[html.index('class="roster"') : html.index('id="think-title"')]
    sessions = html[html.index('id="think-title"') :]
    shown = r'<td><time datetime="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[.\d]*\+00:00">\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}</time>'
    assert len(re.findall(shown, roster)) == 4, "first and last seen of the instance and its subagent"
    assert len(re.findall(shown, sessions)) == 2, "the session's start and deadline"
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}<", html), "no ISO text shown"

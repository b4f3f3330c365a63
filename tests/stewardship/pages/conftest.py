"""Personas of the room: a global admin with a browser session, and helpers to read its pages."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from rbac.models import Principal, Role
from stewardship.models import AuditEntry
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ada(db) -> Principal:
    """The global admin at the room's controls."""
    return make_principal("ada", kind=Principal.Kind.HUMAN, admin=True)


@pytest.fixture
def steward(ada) -> Client:
    client = Client()
    client.force_login(ada.user)
    return client


def audit_lines(action: str) -> list[dict[str, Any]]:
    """The audit trail's lines for ``action``, oldest first, as a reader of the trail sees them."""
    entries = AuditEntry.objects.filter(action=action).order_by("at", "id")
    return [{"actor": e.actor_name, "target": e.target, "before": e.before, "after": e.after} for e in entries]


def inline_error(response) -> dict[str, str | None]:
    """The one error shape as a page shows it inline: code, message and field (None when none is shown)."""
    html = response.content.decode()
    found = re.search(
        r'<div class="error" role="alert" id="[^"]*" data-code="([^"]+)"(?: data-field="([^"]+)")?>\s*<p>([^<]*)</p>',
        html,
    )
    if found is None:
        return {"code": None, "message": None, "field": None}
    return {"code": found.group(1), "field": found.group(2), "message": unescape(found.group(3))}


@pytest.fixture
def two_teams() -> dict[str, Any]:
    """``red`` writes in red, ``blue`` in blue, through the API as agents do; each sees only its own
    workspace."""
    apis = {}
    for name in ("red", "blue"):
        principal, issued = make_agent_with_token(name)
        grant(principal, make_workspace(name), Role.WORKER)
        apis[name] = bearer_client(issued.raw)
    return apis


def add_as(api, team: str, message: str, user_id: str) -> str:
    """``message`` about ``user_id`` added by ``team`` in its workspace; the first memory's id."""
    body = {"actor_id": team, "user_id": user_id, "message": message, "group_id": team}
    answer = api.post("/api/v1/add_memory", body, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["memory_ids"][0]

"""Personas of the room: a global admin with a browser session, and helpers to read its pages."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from rbac.models import Principal
from stewardship.models import AuditEntry
from tests.factories import make_principal

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

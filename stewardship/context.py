"""What every room page's template needs: the navigation."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

ROOM_NAV = (
    ("steward:observatory", "Observatory"),
    ("steward:memories", "Memories"),
    ("steward:runs", "Runs"),
    ("steward:ledger", "Ledger"),
    ("steward:reviews", "Reviews"),
    ("steward:agents", "Agents"),
    ("steward:audit", "Audit"),
)


def room(request: HttpRequest) -> dict[str, Any]:
    return {"room_nav": ROOM_NAV}

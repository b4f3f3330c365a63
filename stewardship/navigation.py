"""What every room page's template needs: the navigation, with the section being shown marked."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

ROOM_NAV = (
    ("steward:observatory", "Observatory"),
    ("steward:people", "People"),
    ("steward:workspaces", "Workspaces"),
    ("steward:federations", "Federations"),
    ("steward:access-check", "Access check"),
    ("steward:memories", "Memories"),
    ("steward:documents", "Documents"),
    ("steward:atlas", "Atlas"),
    ("steward:runs", "Runs"),
    ("steward:ledger", "Ledger"),
    ("steward:reviews", "Reviews"),
    ("steward:agents", "Agents"),
    ("steward:config", "Config"),
    ("steward:backups", "Backups"),
    ("steward:reembed", "Embeddings"),
    ("steward:audit", "Audit"),
)


def room(request: HttpRequest) -> dict[str, Any]:
    if not request.path.startswith("/steward/"):
        return {}
    home = reverse("steward:observatory")
    nav = []
    for name, label in ROOM_NAV:
        url = reverse(name)
        active = request.path == url if url == home else request.path.startswith(url)
        nav.append({"url": url, "label": label, "active": active})
    return {"room_nav": nav}

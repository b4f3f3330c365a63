"""What every room page's template needs: the navigation, grouped, with the page being shown marked.

Seventeen links do not fit one row of a 1,280 px screen, so each group is a menu (a ``<details>``:
no script) whose summary names the page being shown when it is one of the group's."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

ROOM_NAV = (
    (
        "Data",
        (
            ("steward:observatory", "Observatory"),
            ("steward:memories", "Memories"),
            ("steward:owners", "Owners"),
            ("steward:documents", "Documents"),
            ("steward:atlas", "Atlas"),
            ("steward:runs", "Runs"),
            ("steward:ledger", "Ledger"),
            ("steward:reviews", "Reviews"),
        ),
    ),
    (
        "Access",
        (
            ("steward:people", "People"),
            ("steward:workspaces", "Workspaces"),
            ("steward:federations", "Federations"),
            ("steward:access-check", "Access check"),
            ("steward:agents", "Agents"),
        ),
    ),
    (
        "Operations",
        (
            ("steward:config", "Config"),
            ("steward:backups", "Backups"),
            ("steward:reembed", "Embeddings"),
            ("steward:audit", "Audit"),
        ),
    ),
)


def room(request: HttpRequest) -> dict[str, Any]:
    if not request.path.startswith("/steward/"):
        return {}
    home = reverse("steward:observatory")
    groups = []
    for group, pages in ROOM_NAV:
        links = []
        for name, label in pages:
            url = reverse(name)
            active = request.path == url if url == home else request.path.startswith(url)
            links.append({"url": url, "label": label, "active": active})
        current = next((link["label"] for link in links if link["active"]), "")
        groups.append({"label": group, "links": links, "current": current})
    return {"room_nav": groups}

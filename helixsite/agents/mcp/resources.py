"""The three MCP resources: the server's configuration, the database's status, the memory rules."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import mcp_types as types
from django.conf import settings
from django.db import connection
from django.urls import reverse

from helixsite.agents.catalogue import tool_classes
from helixsite.agents.mcp.prompts import prompt_names
from helixsite.db.status import database_status
from memory.charter.selectors import charter_rules
from memory.providers import get_embedder, get_llm

CONFIG_URI = "config://helixsite"
STATUS_URI = "status://database"
RULES_URI = "memory://rules"

RESOURCES = [
    types.Resource(
        uri=CONFIG_URI,
        name="config",
        description="Server version, backends, and the complete list of tools, prompts and resources.",
        mime_type="application/json",
    ),
    types.Resource(
        uri=STATUS_URI,
        name="database_status",
        description="Whether the database is reachable, its versions and pending migrations.",
        mime_type="application/json",
    ),
    types.Resource(
        uri=RULES_URI,
        name="rules",
        description="The memory charter: what Helixsite never does to your memories on its own.",
        mime_type="text/markdown",
    ),
]


class UnknownResource(LookupError):
    pass


def resource_uris() -> list[str]:
    return [resource.uri for resource in RESOURCES]


def resource_read(uri: str, *, actor: Any) -> types.ReadResourceResult:
    """Blocking (the database is asked): call it off the event loop. ``memory://rules`` lists the
    learned rules of the workspaces ``actor`` may read."""
    if uri == CONFIG_URI:
        text, mime = json.dumps(server_config(), indent=2), "application/json"
    elif uri == STATUS_URI:
        text, mime = json.dumps(database_status(), indent=2), "application/json"
    elif uri == RULES_URI:
        text, mime = charter_rules(actor=actor)["text"], "text/markdown"
    else:
        raise UnknownResource(uri)
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)])


def helixsite_version() -> str:
    with open(settings.BASE_DIR / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["project"]["version"]


def server_config() -> dict[str, Any]:
    """What this server is and offers. The release contract: tools/list, prompts/list and
    resources/list answer exactly what this advertises."""
    tools = [tool.tool for tool in tool_classes()]
    return {
        "product": "Helixsite",
        "version": helixsite_version(),
        "endpoints": {
            "mcp_http": "/mcp",
            "mcp_stdio": "python manage.py mcp (token in HELIX_MCP_TOKEN)",
            "rest": "/api/v1/<tool>",
            "openapi": reverse("schema"),
            "api_docs": reverse("api-docs"),
        },
        "backends": _backends(),
        "tools": {"count": len(tools), "names": tools},
        "prompts": {"count": len(prompt_names()), "names": prompt_names()},
        "resources": {"count": len(RESOURCES), "uris": resource_uris()},
    }


def _backends() -> dict[str, Any]:
    status = database_status()
    embedder, llm = get_embedder(), get_llm()
    return {
        "database": {
            "engine": connection.vendor,
            "server_version": status.get("server_version"),
            "pgvector": status.get("pgvector"),
        },
        "embeddings": {"provider": embedder.provider, "model": embedder.model, "dimension": embedder.dimension},
        "llm": {"provider": llm.provider, "model": llm.model or None},
    }

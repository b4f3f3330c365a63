"""``python manage.py mcp``: the MCP server over stdio, acting as one API token's principal.

An MCP host starts it as a child process. The token comes from ``HELIX_MCP_TOKEN`` (or
``--token``, which every user of the machine can read in ``ps``). It is checked at start, and
again on every call, so a token revoked while the server runs stops working at once.
"""

from __future__ import annotations

import os

import anyio
import psycopg
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from mcp.server import Server
from mcp.server.stdio import stdio_server
from rest_framework.exceptions import AuthenticationFailed

from helixsite import embedded_db
from helixsite.agents.mcp.server import build_server
from helixsite.agents.mcp.tools import tool_definitions
from helixsite.long_lived import startup_frozen
from rbac.authentication import token_authenticate


class Command(BaseCommand):
    help = "Serve the MCP tools, prompts and resources over stdio as the principal of an API token."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("--token", help="the API token; prefer HELIX_MCP_TOKEN (a command line shows in ps)")

    def handle(self, *args, token: str | None = None, **options) -> None:
        raw = (token or os.environ.get("HELIX_MCP_TOKEN") or "").strip()
        if not raw:
            raise CommandError("no API token: set HELIX_MCP_TOKEN (or pass --token)")
        _check_database()
        try:
            principal = token_authenticate(raw).user.get_username()
        except AuthenticationFailed as exc:
            raise CommandError(f"the API token was refused: {exc.detail}") from None
        tools = len(tool_definitions())  # the tool schemas, built once before the first client asks
        connections.close_all()  # calls run on worker threads, with connections of their own
        self.stderr.write(f"Helixsite MCP over stdio as {principal}: {tools} tools")
        startup_frozen()
        anyio.run(_serve, build_server(authenticate=lambda ctx: token_authenticate(raw)))


def _check_database() -> None:
    try:
        # A direct connection: through the pool, "refused" would surface only as a pool timeout
        # after several seconds of retries logged on stderr.
        psycopg.connect(**connection.get_connection_params()).close()
    except embedded_db.EmbeddedDatabaseError as exc:
        raise CommandError(str(exc)) from None
    except Exception as exc:
        first_line = (str(exc).strip().splitlines() or [exc.__class__.__name__])[0]
        raise CommandError(f"the database is unreachable: {first_line}") from None


async def _serve(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())

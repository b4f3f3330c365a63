"""The database as any process may check it: reachable through a new connection, its versions,
the vector extension, the migrations applied and pending. A foundation: the room's health page,
``/healthz`` and MCP's ``status://database`` read it."""

from __future__ import annotations

import contextlib
from typing import Any

from django.db import DatabaseError, connection
from django.db.migrations.loader import MigrationLoader

from helixsite.db.outage import connect_directly, reason

HEALTH_CONNECT_TIMEOUT_SECONDS = 3


def database_check() -> dict[str, Any]:
    """A new connection, past the pool: pooled connections can go on working while the server
    refuses every new one (shutting down, out of connections), and only a new one tells."""
    try:
        params = connection.get_connection_params()
        with contextlib.closing(connect_directly(params, timeout=HEALTH_CONNECT_TIMEOUT_SECONDS)) as fresh:
            (version,) = fresh.execute("SELECT current_setting('server_version')").fetchone()
    except Exception as exc:
        return {"ok": False, "error": reason(exc)}
    return {"ok": True, "server_version": version, "vendor": connection.vendor}


def vector_check() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    if row is None:
        return {"ok": False, "error": "the vector extension is not installed; run migrate"}
    return {"ok": True, "version": row[0]}


def database_status() -> dict[str, Any]:
    """The database as any caller may see it (MCP ``status://database``): reachable, versions,
    migrations. Nothing about anyone's data: no counts, no names."""
    database = database_check()
    if not database["ok"]:
        return {"reachable": False, "error": database["error"]}
    vector = vector_check()
    try:
        applied, pending = migration_state()
        migrations: dict[str, Any] = {"applied": applied, "pending": pending}
    except DatabaseError as exc:
        migrations = {"error": str(exc).splitlines()[0]}
    return {
        "reachable": True,
        "vendor": database["vendor"],
        "server_version": database["server_version"],
        "pgvector": vector.get("version"),
        "migrations": migrations,
    }


def migration_state() -> tuple[int, list[str]]:
    """How many migrations are applied, and the names of those still pending."""
    loader = MigrationLoader(connection)
    applied = loader.applied_migrations
    pending = sorted(f"{app}.{name}" for app, name in loader.graph.nodes if (app, name) not in applied)
    return len(applied), pending


def migrations_check() -> dict[str, Any]:
    try:
        _, pending = migration_state()
    except DatabaseError as exc:
        return {"ok": False, "error": str(exc).splitlines()[0]}
    if pending:
        return {"ok": False, "pending": pending, "error": f"{len(pending)} migrations not applied; run migrate"}
    return {"ok": True}

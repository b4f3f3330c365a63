"""The embedded PostgreSQL: start, attach from another process, stop, and clear failures."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from helixsite import embedded_db

ROOT = Path(__file__).resolve().parents[2]
ATTACH = (
    "import sys; from pathlib import Path; from helixsite import embedded_db; "
    "embedded_db.ensure_running(Path(sys.argv[1]), 'appdb'); print(embedded_db.status(Path(sys.argv[1])).pid)"
)


@pytest.mark.slow
def test_start_attach_and_stop(tmp_path):
    data_dir = tmp_path / "data"
    assert embedded_db.status(data_dir).running is False
    try:
        params = embedded_db.ensure_running(data_dir, "appdb")
        started = embedded_db.status(data_dir)
        assert started.running and started.postgres_version == 18

        with psycopg.connect(dbname="appdb", **params) as conn:
            vector = conn.execute(
                "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
            ).fetchone()
        assert vector is not None, "pgvector ships with the embedded server"

        attached = subprocess.run(
            [sys.executable, "-c", ATTACH, str(data_dir)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert int(attached.stdout.strip()) == started.pid, "a second process attaches instead of starting another"
        # As root the server runs as another user, which opens the data dir each time a process attaches.
        assert stat.S_IMODE(data_dir.stat().st_mode) & 0o066 == 0, "others may list or read the data dir"
    finally:
        was_running = embedded_db.stop(data_dir)
    assert was_running is True
    assert embedded_db.status(data_dir).running is False
    assert embedded_db.stop(data_dir) is False


@pytest.mark.slow
def test_the_process_that_stopped_the_server_can_start_it_again(tmp_path):
    data_dir = tmp_path / "data"
    try:
        embedded_db.ensure_running(data_dir, "appdb")
        embedded_db.stop(data_dir)

        params = embedded_db.ensure_running(data_dir, "appdb")

        with psycopg.connect(dbname="appdb", **params) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        embedded_db.stop(data_dir)


@pytest.mark.slow
def test_stop_ends_a_server_shutting_down_while_a_client_holds_it_open(tmp_path):
    data_dir = tmp_path / "data"
    try:
        params = embedded_db.ensure_running(data_dir, "appdb")
        holder = psycopg.connect(dbname="appdb", **params)
        os.kill(embedded_db.status(data_dir).pid, signal.SIGTERM)  # smart shutdown: waits for every client
        assert wait_for(lambda: embedded_db.status(data_dir).state == "stopping", timeout=60)
        with pytest.raises(psycopg.OperationalError, match="shutting down"):
            psycopg.connect(dbname="appdb", **params)

        assert embedded_db.stop(data_dir) is True

        assert embedded_db.status(data_dir).running is False
        assert holder.closed or holder.broken or _query_fails(holder)
    finally:
        embedded_db.stop(data_dir)


def test_a_pid_file_left_by_a_crash_names_no_server_even_when_its_pid_is_reused(tmp_path):
    pgdata = embedded_db.pgdata_path(tmp_path)
    pgdata.mkdir()
    other = subprocess.Popen(["sleep", "60"])
    try:
        lines = [str(other.pid), str(pgdata), "1700000000", "5432", str(pgdata), "", "0 0", "ready"]
        (pgdata / "postmaster.pid").write_text("\n".join(lines) + "\n")

        assert embedded_db.status(tmp_path).running is False
        assert embedded_db.stop(tmp_path) is False
        assert other.poll() is None, "the program that now has the pid is left alone"
    finally:
        other.kill()
        other.wait()


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return bool(predicate())


def _query_fails(conn: psycopg.Connection) -> bool:
    try:
        conn.execute("SELECT 1")
    except psycopg.OperationalError:
        return True
    return False


def test_a_data_dir_that_cannot_be_created_gives_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")

    with pytest.raises(embedded_db.EmbeddedDatabaseError, match="is not writable .*set HELIX_DATA_DIR"):
        embedded_db.ensure_running(blocker / "data", "appdb")


def test_a_data_dir_that_is_a_file_gives_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")

    with pytest.raises(embedded_db.EmbeddedDatabaseError, match="is a file, not a directory"):
        embedded_db.ensure_running(blocker, "appdb")


def test_workers_starting_together_all_find_the_data_dir_writable(tmp_path):
    """The web server's worker processes start at once, and each checks the data dir before
    starting or attaching to the database: no check may trip over another's."""
    failures: list[Exception] = []

    def start_checks() -> None:
        for _ in range(300):
            try:
                embedded_db._check_data_dir(tmp_path)
            except embedded_db.EmbeddedDatabaseError as exc:
                failures.append(exc)

    workers = [threading.Thread(target=start_checks) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert failures == []
    assert list(tmp_path.iterdir()) == [], "no probe is left behind"


def test_a_process_that_loses_the_race_to_create_the_database_carries_on(monkeypatch):
    """Two processes starting together both find no database and both create it; the one whose
    CREATE DATABASE runs beside the other's gets unique_violation from the catalog (what the test
    suite's two workers met, and ``make run``'s web server and worker may): it carries on."""
    created = []

    class Maintenance:
        def execute(self, statement, params=None):
            if "CREATE DATABASE" in str(statement if isinstance(statement, str) else statement.as_string(None)):
                created.append(statement)
                raise psycopg.errors.UniqueViolation('duplicate key value violates "pg_database_datname_index"')
            return self

        def fetchone(self):
            return None  # not there yet when it looked

        def close(self):
            pass

    monkeypatch.setattr(psycopg, "connect", lambda **params: Maintenance())

    embedded_db._create_database({"host": "/nowhere"}, "appdb")

    assert len(created) == 1

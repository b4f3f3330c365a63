"""The worker cluster's queue with the database out of reach: a few lines, not one every half
second, and tasks run again once the database takes connections, without a restart."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from django_q.models import OrmQ
from django_q.tasks import async_task, result

from helixsite.task_broker import OrmBroker

ROOT = Path(__file__).resolve().parents[2]
WINDOW_SECONDS = 15


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.25)
    return bool(predicate())


def records(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


@pytest.fixture
def worker_log(tmp_path):
    """A worker cluster against the test database, its log (JSON lines) in a file."""
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "helixsite.settings.base",
        "HELIX_DB_NAME": connection.settings_dict["NAME"],
        "HELIX_WORKER_PROCESSES": "1",
        "HELIX_LOG_FORMAT": "json",
    }
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    yield log
    process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=60)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # anything of the cluster still left


@pytest.mark.slow
def test_a_worker_waits_quietly_for_a_database_refusing_connections_and_resumes(
    database_refusing_new_connections, worker_log
):
    assert wait_for(lambda: any("running" in r["msg"] for r in records(worker_log)), timeout=120), (
        worker_log.read_text()
    )
    seen = len(records(worker_log))
    # The window is watched from the outage's first line on: a busy machine may take seconds
    # between the cluster running and its poller's first try.
    outage = "the database is unreachable"
    assert wait_for(lambda: any(outage in r["msg"] for r in records(worker_log)), timeout=120), worker_log.read_text()
    time.sleep(WINDOW_SECONDS)  # a window of time, to count what the log says in it
    complaints = [r for r in records(worker_log)[seen:] if r["level"] in ("WARNING", "ERROR", "CRITICAL")]

    assert len(complaints) <= 4, "\n".join(r["msg"] for r in complaints)
    assert all("exc" not in r for r in complaints), "no tracebacks: the code did nothing wrong"

    database_refusing_new_connections(True)
    task_id = async_task("math.floor", 2.5, sync=False)

    assert result(task_id, wait=120_000) == 2
    assert any("the database is reachable again" in r["msg"] for r in records(worker_log))


def test_a_finished_task_is_taken_off_the_queue_once_the_database_is_back_not_left_to_run_again(
    database_refusing_new_connections, caplog
):
    """The monitor acknowledges a task as the database goes away: it waits (one WARNING, no
    traceback), and acknowledges it once the database takes connections again."""
    database_refusing_new_connections(True)  # while the task is queued
    broker = OrmBroker()
    OrmQ.objects.create(key=broker.list_key, payload="finished", lock=timezone.now())
    (queued,) = OrmQ.objects.values_list("pk", flat=True)
    database_refusing_new_connections(False)
    connection.close()  # the monitor's connection went with the database
    done = threading.Event()

    def monitor() -> None:
        try:
            broker.acknowledge(queued)
            done.set()
        finally:
            connection.close()  # this thread's own

    with caplog.at_level(logging.INFO, logger="helixsite.database"):
        acknowledging = threading.Thread(target=monitor, daemon=True)
        acknowledging.start()
        assert wait_for(lambda: any("unreachable" in r.getMessage() for r in caplog.records), timeout=60)
        assert not done.is_set(), "it waits for the database"
        database_refusing_new_connections(True)
        acknowledging.join(timeout=120)

    assert done.is_set(), "acknowledged once the database was back"
    assert not OrmQ.objects.filter(pk=queued).exists(), "off the queue: it will not run again"
    assert [r.levelname for r in caplog.records if r.exc_info and r.exc_info[0]] == []
    assert any("reachable again" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_whose_session_was_ended_is_written_on_a_new_connection_at_once():
    """A restore's switch ends every session on a database that stays reachable: the cluster's
    next heartbeat is written, not paused as if the database were away (a running worker then
    looked dead to /healthz for many seconds)."""
    from django.core.cache import cache
    from django.db import connections

    from stewardship.vault import postgres

    broker = OrmBroker()
    broker.set_stat("heartbeat:test", "before", 30)
    pid = connection.cursor().connection.info.backend_pid
    with postgres.connect(dbname="postgres") as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])

    broker.set_stat("heartbeat:test", "after", 30)

    assert broker.heartbeat_resumes == 0.0, "no pause"
    connections["default"].close()
    assert cache.get("heartbeat:test") == "after"

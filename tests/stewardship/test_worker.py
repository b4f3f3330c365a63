"""A real django-q2 cluster (ORM broker) against the test database."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django_q.tasks import async_task, result

from rbac.models import Principal
from tests.factories import make_principal

ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate, timeout: float, interval: float = 0.25):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


@pytest.fixture
def worker():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "helixsite.settings.base",
        "HELIX_DB_NAME": connection.settings_dict["NAME"],
        "HELIX_WORKER_PROCESSES": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    yield process
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # anything of the cluster still left


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_worker_runs_tasks_and_its_heartbeat_makes_health_green(client, worker):
    client.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)  # sees the heartbeat
    task_id = async_task("math.floor", 2.5, sync=False)

    assert result(task_id, wait=120_000) == 2
    response = wait_for(lambda: (r := client.get("/healthz")).status_code == 200 and r, timeout=120)
    assert response, f"health stayed failing: {client.get('/healthz').json()}"
    assert response.json()["checks"]["worker"]["heartbeat_age_seconds"] < settings.HELIX_WORKER_STALE_SECONDS

    worker.terminate()
    assert worker.wait(timeout=120) == 0

    stale = wait_for(lambda: (r := client.get("/healthz")).status_code == 503 and r, timeout=120)
    assert stale, "health must turn 503 once the worker stops"
    assert stale.json()["failing"] == ["worker"]

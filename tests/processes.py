"""Processes a test starts against the test database, as `make run` starts them: uvicorn serving
helixsite.asgi with its web workers, and a django-q2 cluster (`manage.py qcluster`).

Each runs in a process group of its own, stopped as a whole when the test leaves the block, and
its log is printed then (pytest shows it when the test fails). They see only committed rows.
Waits are bounded generously (a busy machine loads the embedding model slowly), never timed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import httpx2
import psutil

from tests.helixsite.agents.mcp.conftest import ROOT, free_port, server_env

STARTUP_SECONDS = 300


@contextlib.contextmanager
def web_server(*, workers: int = 2, **env: str) -> Iterator[str]:
    """A web server on a free loopback port, with ``env`` added to its environment: its base URL."""
    with web_server_process(workers=workers, **env) as (base, _):
        yield base


@contextlib.contextmanager
def web_server_process(*, workers: int = 2, **env: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """``web_server``, with the server's process (whose children are its web workers)."""
    port = free_port()
    command = [sys.executable, "-m", "helixsite.web", "--host", "127.0.0.1", "--port", str(port)]
    with _process([*command, "--workers", str(workers), "--log-level", "warning"], env) as process:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base, process)
        yield base, process


def web_workers(process: subprocess.Popen) -> set[int]:
    """The pids of the server's worker processes: a worker that died and was replaced changes them."""
    return {child.pid for child in psutil.Process(process.pid).children()}


@contextlib.contextmanager
def worker_cluster(*, processes: int = 1, **env: str) -> Iterator[subprocess.Popen]:
    """A django-q2 cluster taking tasks from the database queue. Its process leads its group:
    ``os.killpg(cluster.pid, signal.SIGKILL)`` takes the whole cluster down at once."""
    command = [sys.executable, "manage.py", "qcluster"]
    with _process(command, {"HELIX_WORKER_PROCESSES": str(processes), **env}) as process:
        yield process


@contextlib.contextmanager
def _process(command: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen]:
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=server_env(**env), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield process
        finally:
            stop(process)
            log.seek(0)
            print(log.read())


def stop(process: subprocess.Popen) -> None:
    """Ask the process to stop, then kill whatever is left of its group."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)


def wait_until_serving(base: str, process: subprocess.Popen) -> None:
    """Until ``base``'s ``/healthz`` answers (200, or 503 while no worker cluster runs)."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, "the web server exited"
        with contextlib.suppress(httpx2.TransportError):
            # 503 is an answer too: health fails while no worker cluster runs.
            if httpx2.get(f"{base}/healthz", timeout=STARTUP_SECONDS).status_code in (200, 503):
                return
        time.sleep(0.3)
    raise AssertionError("the web server did not answer")

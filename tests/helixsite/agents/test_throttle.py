"""The per-token budget is exact under concurrency: many clients on one token, against two web
worker processes (as `make run` serves), get exactly the budget accepted and the rest 429."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator

import httpx2
import pytest

from tests.helixsite.agents.mcp.conftest import ROOT, build_world, free_port, server_env

pytestmark = pytest.mark.slow

BUDGET = 40  # per day: nothing refills while the test runs
CLIENTS, CALLS_EACH = 16, 8


@pytest.fixture
def two_workers(transactional_db) -> Iterator[tuple[str, str]]:
    """A server with two web workers and a small budget, and a token of a principal it knows."""
    world = build_world()
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        command = [sys.executable, "-m", "helixsite.web", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
        process = subprocess.Popen(
            [*command, "--log-level", "warning"],
            cwd=ROOT,
            env=server_env(HELIX_API_RATE=f"{BUDGET}/day"),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_serving(base, process)
            yield base, world.writer_token
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            log.seek(0)
            print(log.read())


def _wait_until_serving(base: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, "the web server exited"
        with contextlib.suppress(httpx2.TransportError):
            if httpx2.get(f"{base}/healthz", timeout=120).status_code in (200, 503):
                return
        time.sleep(0.3)
    raise AssertionError("the web server did not answer")


def test_concurrent_clients_on_one_token_get_exactly_the_budget(two_workers):
    base, token = two_workers
    statuses: Counter[int] = Counter()
    lock, start = threading.Lock(), threading.Barrier(CLIENTS)

    def client() -> None:
        # A connection of its own per call: the calls spread over both worker processes.
        start.wait()
        for _ in range(CALLS_EACH):
            answer = httpx2.post(
                f"{base}/api/v1/list_memories",
                json={"actor_id": "writer", "user_id": "bob"},
                headers={"Authorization": f"Bearer {token}", "Connection": "close"},
                timeout=120,
            )
            with lock:
                statuses[answer.status_code] += 1

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    assert statuses == {200: BUDGET, 429: CLIENTS * CALLS_EACH - BUDGET}
    refused = httpx2.post(
        f"{base}/api/v1/list_memories",
        json={"actor_id": "writer", "user_id": "bob"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )
    assert refused.json()["error"]["code"] == "throttled" and int(refused.headers["Retry-After"]) > 0

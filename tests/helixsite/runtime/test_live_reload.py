"""A patch applied while the server runs reaches both of its web worker processes and the
queue worker without a restart: a search weight and the API rate budget, changed from the room,
seen through the API (REST and MCP)."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from django.test import Client
from django.urls import reverse

from helixsite.runtime.models import ConfigVersion
from tests.factories import make_principal
from tests.helixsite.agents.mcp.conftest import ROOT, build_world, free_port, server_env
from tests.processes import STARTUP_SECONDS, stop

pytestmark = pytest.mark.slow

DEADLINE = 60
APPLIED = re.compile(r"Configuration version (\d+) applied in process (\d+): ([A-Z_, ]+)\.")


class Logged:
    """A process whose output goes to a file the test reads while it runs."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.log = Path(tempfile.mkstemp(prefix="helix-live-reload-", suffix=".log")[1])
        self.handle = self.log.open("w")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=server_env(**env),
            stdout=self.handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def applied(self, version: int, name: str) -> set[str]:
        """The processes that logged applying ``version`` with ``name`` among its changes."""
        found = APPLIED.findall(self.log.read_text())
        return {pid for number, pid, names in found if int(number) == version and name in names}

    def close(self) -> None:
        stop(self.process)
        self.handle.close()
        print(self.log.read_text())
        self.log.unlink()


@contextlib.contextmanager
def started(command: list[str], **env: str) -> Iterator[Logged]:
    logged = Logged(command, env)
    try:
        yield logged
    finally:
        logged.close()


def wait_for(predicate: Callable[[], Any], timeout: float = DEADLINE) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    return predicate()


@pytest.fixture
def running(transactional_db) -> Iterator[tuple[str, str, Logged, Logged]]:
    world = build_world()
    port = free_port()
    web = [sys.executable, "-m", "helixsite.web", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    with (
        started(web, HELIX_CONFIG_CHECK_SECONDS="1") as server,
        started([sys.executable, "manage.py", "qcluster"], HELIX_WORKER_PROCESSES="1") as worker,
    ):
        base = f"http://127.0.0.1:{port}"
        serving = wait_for(lambda: _answers(base), timeout=STARTUP_SECONDS)
        assert serving, "the web server did not answer"
        yield base, world.writer_token, server, worker


def _answers(base: str) -> bool:
    with contextlib.suppress(httpx2.TransportError):
        return httpx2.get(f"{base}/healthz", timeout=STARTUP_SECONDS).status_code in (200, 503)
    return False


def call(base: str, token: str, tool: str, **params: Any) -> httpx2.Response:
    # A connection of its own per call: the calls spread over both worker processes.
    headers = {"Authorization": f"Bearer {token}", "Connection": "close"}
    return httpx2.post(f"{base}/api/v1/{tool}", json={"actor_id": "writer", **params}, headers=headers, timeout=120)


def top_score(base: str, token: str) -> float:
    answer = call(base, token, "search_memory", user_id="ops", query="staging deploys")
    assert answer.status_code == 200, answer.text
    return answer.json()["results"][0]["score"]


def patch(room: Client, **submitted: str) -> int:
    """Apply ``submitted`` from the room, as a global admin does: review, then apply what was reviewed."""
    reviewed = room.post(reverse("steward:config-review"), submitted)
    assert reviewed.status_code == 200, reviewed.content
    base_version = re.search(r'name="base_version" value="(\d+)"', reviewed.content.decode()).group(1)
    applied = room.post(reverse("steward:config-apply"), {"base_version": base_version, **submitted})
    assert applied.status_code == 302, applied.content
    return ConfigVersion.objects.newest_first().first().number


def mcp_top_score(base: str, token: str) -> float:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "search_memory",
            "arguments": {"actor_id": "writer", "user_id": "ops", "query": "staging deploys"},
        },
    }
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "Connection": "close",
    }
    answer = httpx2.post(f"{base}/mcp", json=body, headers=headers, timeout=120)
    assert answer.status_code == 200, answer.text
    return answer.json()["result"]["structuredContent"]["results"][0]["score"]


def test_a_patch_reaches_both_web_workers_and_the_queue_worker(running):
    base, token, server, worker = running
    room = Client()
    room.force_login(make_principal("ada", admin=True).user)
    added = call(base, token, "add_memory", user_id="ops", group_id="team", message="Staging deploys run on Fridays.")
    assert added.status_code == 200, added.text
    before = top_score(base, token)

    version = patch(room, HELIX_SEARCH_SEMANTIC_WEIGHT="0.1")

    # Each worker applies it before the first call it serves after the change.
    def both(name: str) -> bool:
        call(base, token, "list_memories", user_id="ops")
        return len(server.applied(version, name)) == 2

    assert wait_for(lambda: both("HELIX_SEARCH_SEMANTIC_WEIGHT")), "both web workers apply the weight"
    assert all(top_score(base, token) < before for _ in range(8)), "the new weight is in force"
    assert all(mcp_top_score(base, token) < before for _ in range(4)), "over MCP too"

    # The queue worker applies it before the next task it runs (this write's enrichment).
    call(base, token, "add_memory", user_id="ops", group_id="team", message="Production deploys run on Tuesdays.")
    assert wait_for(lambda: worker.applied(version, "HELIX_SEARCH_SEMANTIC_WEIGHT")), "the queue worker"

    version = patch(room, HELIX_API_RATE="2/day")
    assert wait_for(lambda: both("HELIX_API_RATE")), "both web workers apply the budget"
    statuses = [call(base, token, "list_memories", user_id="ops").status_code for _ in range(12)]
    assert statuses.count(200) <= 2 and statuses[-8:] == [429] * 8, statuses

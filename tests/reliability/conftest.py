"""The reliability suite: a real server (uvicorn, two web workers, as `make run` serves) on the
test database, called over loopback the way agents call it.

Each test has a server of its own: a server kept across the flush that ends a test on committed
rows refused the next test's writer over REST (404 for its workspace; the MCP transport clears
Django's content-type cache on every call, the REST views do not)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from rbac.models import Workspace
from tests.helixsite.agents.mcp.conftest import build_world
from tests.processes import web_server_process, web_workers

# Every wait is bounded generously (a busy machine is slow), never by how fast things run.
TIMEOUT = 120
CLIENTS = 16


@dataclass
class Server:
    """A running server and the token of "writer", a worker in the workspace "team"."""

    base: str
    token: str

    def call(self, tool: str, **arguments: Any) -> httpx2.Response:
        """One REST call as "writer" on a connection of its own (calls spread over the web workers)."""
        return httpx2.post(
            f"{self.base}/api/v1/{tool}",
            json={"actor_id": "writer", **arguments},
            headers={"Authorization": f"Bearer {self.token}", "Connection": "close"},
            timeout=TIMEOUT,
        )


def answer_of(response: httpx2.Response) -> Any:
    """The response's JSON, or its text when it is not JSON (shown by a failing assertion)."""
    try:
        return response.json()
    except ValueError:
        return response.text


def write_together(server: Server, plan: list[list[tuple[str, str]]]) -> list[tuple[str, str, int, Any]]:
    """add_memory from ``CLIENTS`` clients, round by round: in each round client ``i`` sends
    ``(owner, message) = round[i]`` and all of them send at once. Every (owner, message, status, answer)."""
    answers: list[tuple[str, str, int, Any]] = []
    lock, start = threading.Lock(), threading.Barrier(CLIENTS, timeout=TIMEOUT)

    def client(index: int) -> None:
        for calls in plan:
            start.wait()  # every client of the round sends at once
            owner, message = calls[index]
            response = server.call("add_memory", user_id=owner, group_id="team", message=message)
            with lock:
                answers.append((owner, message, response.status_code, answer_of(response)))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not any(thread.is_alive() for thread in threads), "a client never got its answers"
    return answers


def _restore_reserved_workspaces() -> None:
    """The workspaces the migrations create: the flush that ends a test on committed rows (as
    every test here is) removes them, and enroll_client needs "onboarding"."""
    for slug in (Workspace.DEFAULT, Workspace.ONBOARDING):
        Workspace.objects.update_or_create(slug=slug, defaults={"name": slug.title(), "reserved": True})


@pytest.fixture
def server_settings() -> dict[str, str]:
    """The server's settings (environment variables); a module overrides this to change them."""
    return {"HELIX_API_RATE": "1000000/minute"}  # the rate limit is test_throttle's subject


@pytest.fixture
def server(transactional_db, server_settings: dict[str, str]) -> Iterator[Server]:
    _restore_reserved_workspaces()
    world = build_world()
    with web_server_process(**server_settings) as (base, process):
        workers = web_workers(process)
        yield Server(base=base, token=world.writer_token)
        # No input in these tests may take a web worker down: the server would replace it.
        assert web_workers(process) == workers, "a web worker died during the test and was replaced"

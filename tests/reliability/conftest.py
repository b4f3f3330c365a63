"""The reliability suite: a real server (uvicorn, two web workers, as `make run` serves) on the
test database, called over loopback the way agents call it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from tests.helixsite.agents.mcp.conftest import build_world
from tests.processes import web_server

# A web worker loads the embedding model on its first write or search: on a busy machine
# that takes seconds. Every wait is bounded generously, never by how fast things run.
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


@pytest.fixture
def server_settings() -> dict[str, str]:
    """Settings (environment variables) of the server; a module overrides this to change them."""
    return {}


@pytest.fixture
def server(transactional_db, server_settings: dict[str, str]) -> Iterator[Server]:
    world = build_world()
    with web_server(**server_settings) as base:
        yield Server(base=base, token=world.writer_token)

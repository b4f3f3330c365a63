"""The per-token budget is exact under concurrency: many clients on one token, against two web
worker processes (as `make run` serves), get exactly the budget accepted and the rest 429."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import httpx2
import pytest

from tests.helixsite.agents.mcp.conftest import build_world
from tests.processes import web_server

pytestmark = pytest.mark.slow

BUDGET = 40  # per day: nothing refills while the test runs
CLIENTS, CALLS_EACH = 16, 8


@pytest.fixture
def two_workers(transactional_db) -> Iterator[tuple[str, str]]:
    """A server with two web workers and a small budget, and a token of a principal it knows."""
    world = build_world()
    with web_server(HELIX_API_RATE=f"{BUDGET}/day") as base:
        yield base, world.writer_token


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

    print(
        f"\nrate limit: {CLIENTS} clients x {CALLS_EACH} calls on one token with a budget of {BUDGET}, "
        f"two web workers: responses {dict(sorted(statuses.items()))}"
    )
    assert statuses == {200: BUDGET, 429: CLIENTS * CALLS_EACH - BUDGET}
    refused = httpx2.post(
        f"{base}/api/v1/list_memories",
        json={"actor_id": "writer", "user_id": "bob"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )
    assert refused.json()["error"]["code"] == "throttled" and int(refused.headers["Retry-After"]) > 0

"""Buffered writes (HELIX_ADD_BUFFERED: the web answers "accepted", a django-q2 cluster writes).

Identical buffered writes racing in two worker processes store one memory. A worker cluster
killed (SIGKILL, the whole process group) in the middle of a buffered write: the write's
transaction dies with it, the task is delivered again once HELIX_TASK_RETRY_SECONDS have passed
since its claim, a new cluster takes the write over and it is stored exactly once.

The killed write is held mid-way deterministically: the test holds the lock a write for one owner in
one write domain takes before it stores anything (``memory.ingest.apply``), so the task is
known to have claimed the write and to be inside its transaction when the cluster is killed.
Embeddings come from a stub endpoint on loopback, so no worker process loads a model and the
task timeout and the retry delay can be short; the retry is django-q2's own, after that delay.
"""

from __future__ import annotations

import hashlib
import os
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from django.db import connection
from django_q.models import OrmQ, Task

from memory.models import Memory
from memory.outbox.models import PendingInput
from rbac.models import Workspace
from tests.openai_compatible_server import Answer, OpenAICompatibleServer, embedding_answer
from tests.processes import worker_cluster
from tests.reliability.conftest import CLIENTS, Server, write_together
from tests.threads import write_lock_held

pytestmark = pytest.mark.slow

TASK_TIMEOUT = 15  # seconds
TASK_RETRY = 20  # seconds after its claim before a task whose worker died is delivered again
DEADLINE = 300  # every wait, generous


def stub_embedding(request: dict[str, Any]) -> Answer:
    """384-d unit vectors, the same for the same text."""
    vectors = []
    for text in request["input"]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        vector = np.random.default_rng(seed).normal(size=384)
        vectors.append((vector / np.linalg.norm(vector)).tolist())
    return embedding_answer(vectors)


@pytest.fixture
def server_settings() -> Iterator[dict[str, str]]:
    """The settings of the server and of the worker clusters, with the stub they embed with."""
    with OpenAICompatibleServer() as stub:
        stub.queue("/v1/embeddings", *[stub_embedding] * 500)
        yield {
            "HELIX_ADD_BUFFERED": "true",
            "HELIX_TASK_TIMEOUT": str(TASK_TIMEOUT),
            "HELIX_TASK_RETRY_SECONDS": str(TASK_RETRY),
            "HELIX_EMBEDDINGS": "openai",
            "HELIX_EMBEDDING_BASE_URL": stub.base_url,
        }


RACED = ["Bob's locker is number 42.", "Bob parks in bay 7.", "Bob's badge is B-1187.", "Bob's desk is 4.12."]


def test_racing_buffered_writes_store_each_fact_once(server: Server, server_settings):
    # Sixteen clients at once: four copies of each fact, then the same again.
    plan = [[("bob", message) for message in RACED for _ in range(4)]] * 2
    before = Memory.objects.count()
    with worker_cluster(processes=2, **server_settings):
        accepted = write_together(server, plan)
        pending = [answer["pending_id"] for _, _, _, answer in accepted]
        _wait_for(lambda: all(_status(server, p)["status"] in ("done", "failed") for p in pending), "the writes")
    outcomes = {p: _status(server, p) for p in pending}
    holders: dict[str, set[str]] = defaultdict(set)
    for _, message, _, answer in accepted:
        (decision,) = outcomes[answer["pending_id"]]["result"]["decisions"]
        holders[message].add(decision["memory_id"])
    print(
        f"\nbuffered writes: {len(accepted)} add_memory calls by {CLIENTS} clients, responses "
        f"{dict(Counter(status for _, _, status, _ in accepted))}, outcomes "
        f"{dict(Counter(o['status'] for o in outcomes.values()))}; memory rows before {before}, "
        f"after {Memory.objects.count()}"
    )

    assert {o["status"] for o in outcomes.values()} == {"done"}
    assert {message: len(ids) for message, ids in holders.items()} == dict.fromkeys(RACED, 1)
    assert sorted(_listed_ids(server, "bob")) == sorted(next(iter(ids)) for ids in holders.values())
    assert Memory.objects.filter(user_id="bob").count() == len(RACED)


def test_a_write_whose_worker_is_killed_is_retried_and_stored_once(server: Server, server_settings):
    before = Memory.objects.count()
    scope = f"rbac:group:{Workspace.objects.get(slug='team').id}"
    with write_lock_held(scope=scope, user_id="bob"), worker_cluster(**server_settings) as cluster:
        accepted = server.call("add_memory", user_id="bob", group_id="team", message="Bob's locker is number 42.")
        pending_id = accepted.json()["pending_id"]
        blocked = _wait_for(lambda: _claimed(pending_id) and _waiting_on_a_lock(), "the task to block")
        os.killpg(cluster.pid, signal.SIGKILL)
        killed_at = time.monotonic()
        cluster.wait(timeout=60)
    stalled, stalled_rows = PendingInput.objects.get(pk=pending_id), Memory.objects.count()
    assert (stalled.status, stalled.attempts, stalled_rows) == ("running", 1, before)

    with worker_cluster(**server_settings):
        _wait_for(lambda: _status(server, pending_id)["status"] in ("done", "failed"), "the retry")
        status = _status(server, pending_id)
        retried_after = time.monotonic() - killed_at
    listed = server.call("list_memories", user_id="bob").json()["memories"]
    finished = PendingInput.objects.get(pk=pending_id)
    print(
        f"\nworker killed: the write claimed and blocked {blocked} after it was accepted, the cluster "
        f"SIGKILLed; a new cluster finished it ({status['status']}) {retried_after:.0f} s after the kill; "
        f"attempts {finished.attempts}; memory rows before {before}, while stalled {stalled_rows}, "
        f"after {Memory.objects.count()}; tasks left queued {OrmQ.objects.count()}"
    )

    assert status["status"] == "done", status
    (memory_id,) = status["result"]["memory_ids"]
    assert [m["id"] for m in listed] == [memory_id] and "42" in listed[0]["content"]
    assert Memory.objects.filter(user_id="bob").count() == 1
    assert finished.attempts == 2, "claimed once by the killed worker, once by the retry"
    assert Task.objects.filter(name=f"add {pending_id}", success=True).count() == 1


def _claimed(pending_id: str) -> bool:
    return PendingInput.objects.filter(pk=pending_id, status="running").exists()


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        return cursor.fetchone()[0] > 0


def _listed_ids(server: Server, owner: str) -> list[str]:
    return [m["id"] for m in server.call("list_memories", user_id=owner).json()["memories"]]


def _status(server: Server, pending_id: str) -> dict[str, Any]:
    return server.call("get_add_status", pending_id=pending_id).json()


def _wait_for(condition: Callable[[], bool], what: str) -> str:
    """Poll until ``condition`` holds; how long it took, for the summary line."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < DEADLINE, f"gave up waiting for {what}"
        time.sleep(0.25)
    return f"{time.monotonic() - started:.1f} s"

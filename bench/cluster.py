"""Throughput and latency past one process: a mixed agent load (searches and stored adds) through
one web process, then two, against a PostgreSQL primary with a streaming replica, and two web
processes against the primary alone. Every process is started from scratch (tests/cluster.py): a
primary and a replica made with the binaries the embedded server ships, worker cluster, web
servers with ``DATABASE_URL`` and ``DATABASE_REPLICA_URLS``.

All of it shares this machine's cores: the figures say what splitting the web tier costs or gains
here, and where the reads went, not what more machines would give.

``BENCH_CLUSTER_MEMORIES`` (10,000) memories are loaded with ``import_jsonl``;
``BENCH_CLUSTER_CLIENTS`` (1, then 8) clients make ``BENCH_CLUSTER_CALLS`` (60) calls each per setup,
one in ``BENCH_CLUSTER_WRITE_EVERY`` (5) an ``add_memory``, the rest ``search_memory``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx2

from bench.corpus import statements
from bench.search_latency import _queries
from bench.timing import concurrently, percentiles
from helixsite.agents.tool import READ_FROM_HEADER
from tests.cluster import Group, PostgresNode, manage, primary_and_replica, wait_for, web, worker
from tests.helixsite.agents.mcp.conftest import free_port

MEMORIES = int(os.environ.get("BENCH_CLUSTER_MEMORIES", "10000"))
CLIENTS = [int(n) for n in os.environ.get("BENCH_CLUSTER_CLIENTS", "1,8").split(",")]
CALLS = int(os.environ.get("BENCH_CLUSTER_CALLS", "60"))
WRITE_EVERY = int(os.environ.get("BENCH_CLUSTER_WRITE_EVERY", "5"))
OWNERS = 200


def run() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="helix-bench-cluster-"))
    with primary_and_replica(free_port) as (primary, replica):
        env = {
            "DATABASE_URL": primary.url(),
            "HELIX_DATA_DIR": str(data_dir),
            "HELIX_SECRET_KEY": "bench-cluster-" + uuid.uuid4().hex * 2,
            "HELIX_API_RATE": "1000000/minute",
        }
        token = _load(env, data_dir)
        _caught_up(primary, replica)
        with _group(worker("worker", env)):
            with_replica = {**env, "DATABASE_REPLICA_URLS": replica.url()}
            _measure("1 web process, primary + replica", token, with_replica, webs=1)
            _measure("2 web processes, primary + replica", token, with_replica, webs=2)
            _measure("2 web processes, primary only", token, env, webs=2)


def _load(env: dict[str, str], data_dir: Path) -> str:
    manage(["create_workspace", "Bench", "--slug", "bench"], **env)
    issued = manage(["create_principal", "bench", "--agent"], **env)
    token = issued.rsplit(":", 1)[1].strip()
    manage(["grant_role", "bench", "bench", "worker"], **env)
    rows = data_dir / "memories.jsonl"
    with rows.open("w") as out:
        for i, (user, text) in enumerate(statements(MEMORIES, owners=20)):
            owner = f"user{int(user[4:]) * 10 + i % 10:03d}"
            out.write(json.dumps({"user_id": owner, "content": text, "group_id": "bench"}) + "\n")
    started = time.perf_counter()
    manage(["import_jsonl", str(rows), "--actor", "bench"], **env)
    print(f"loaded {MEMORIES:,} memories with import_jsonl in {time.perf_counter() - started:.0f} s")
    return token


def _caught_up(primary: PostgresNode, replica: PostgresNode) -> None:
    target = primary.scalar("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")
    wait_for(lambda: replica.scalar("SELECT pg_last_wal_replay_lsn() - '0/0'::pg_lsn") >= target, "the replica")


@contextlib.contextmanager
def _group(group: Group) -> Iterator[Group]:
    try:
        yield group
    finally:
        group.stop(quiet=True)


def _measure(setup: str, token: str, env: dict[str, str], *, webs: int) -> None:
    servers = [web(f"web-{n}", free_port(), env) for n in range(webs)]
    try:
        bases = [str(group.url) for group in servers]
        _warm(bases, token)
        for clients in CLIENTS:
            _load_with(setup, token, bases, clients)
    finally:
        for group in servers:
            group.stop(quiet=True)


def _load_with(setup: str, token: str, bases: list[str], clients: int) -> None:
    samples: dict[str, list[float]] = {"search_memory": [], "add_memory": []}
    answered: Counter[str] = Counter()
    lock = threading.Lock()

    def client(n: int) -> None:
        queries = _queries(CALLS, seed=n)
        mine: dict[str, list[float]] = {"search_memory": [], "add_memory": []}
        where: Counter[str] = Counter()
        with httpx2.Client(base_url=bases[n % len(bases)], timeout=120) as http:
            headers = {"Authorization": f"Bearer {token}"}
            for k, (owner, query) in enumerate(queries):
                if k % WRITE_EVERY == WRITE_EVERY - 1:
                    tool = "add_memory"
                    arguments = {"user_id": owner, "group_id": "bench", "message": f"{owner} filed ticket {n}-{k}."}
                else:
                    tool, arguments = "search_memory", {"user_id": owner, "query": query}
                started = time.perf_counter()
                response = http.post(f"/api/v1/{tool}", json={"actor_id": "bench", **arguments}, headers=headers)
                mine[tool].append((time.perf_counter() - started) * 1000)
                response.raise_for_status()
                if tool == "search_memory":
                    where[response.headers[READ_FROM_HEADER]] += 1
        with lock:
            for tool, values in mine.items():
                samples[tool].extend(values)
            answered.update(where)

    elapsed = concurrently(clients, client)
    calls = sum(len(values) for values in samples.values())
    print(f"{setup}, {clients} client(s): {calls / elapsed:.1f} calls/s over {calls} calls")
    for tool, values in samples.items():
        print(f"  {tool}: {percentiles(values)} ms")
    print(f"  searches answered by: {dict(answered)}")


def _warm(bases: list[str], token: str) -> None:
    """Every web process loads the embedding model on its first search: not part of the figures."""
    for base in bases:
        for k in range(3):
            httpx2.post(
                f"{base}/api/v1/search_memory",
                json={"actor_id": "bench", "user_id": "user001", "query": f"warm up {k}"},
                headers={"Authorization": f"Bearer {token}"},
                timeout=300,
            ).raise_for_status()

"""search_memory over real HTTP: uvicorn (HELIX_WEB_WORKERS workers) serving the bench
database, the 100,000-memory corpus of ``search_latency`` (BENCH_HTTP_SIZE), and 1 and 8
concurrent clients (BENCH_HTTP_CLIENTS) each with its own keep-alive connection, using the
repository's Python client. Every query is new. Then the same call over MCP (streamable
HTTP) against over REST, one client, to measure what MCP adds."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from django.conf import settings
from django.db import connection

from bench.search_latency import _queries, _top_up
from bench.setup import prepared
from bench.timing import concurrently, percentiles
from helixsite.client import Helixsite
from rbac.services import token_issue

QUERIES_PER_CLIENT = int(os.environ.get("BENCH_HTTP_QUERIES", "150"))


def run() -> None:
    size = int(os.environ.get("BENCH_HTTP_SIZE", "100000"))
    clients = [int(c) for c in os.environ.get("BENCH_HTTP_CLIENTS", "1,8").split(",")]
    actor = prepared(workspace=f"bench-search-{size}", principal=f"bench-search-{size}")
    _top_up(actor, size)
    token = token_issue(user=actor, name="bench http").raw
    connection.close()
    with _server() as base_url:
        _warm(base_url, token, actor.username)
        for count in clients:
            _measure(base_url, token, actor.username, count, size)
        _mcp_overhead(base_url, token, actor.username, size)


def _measure(base_url: str, token: str, actor_id: str, clients: int, size: int) -> None:
    samples: list[float] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        helix = Helixsite(base_url, token=token, actor_id=actor_id)
        helix.search_memory(user_id="user001", query=f"warm up {n}")
        mine = []
        for user_id, query in _queries(QUERIES_PER_CLIENT, seed=time.time_ns() + n):
            started = time.perf_counter()
            helix.search_memory(user_id=user_id, query=query)
            mine.append((time.perf_counter() - started) * 1000)
        helix.close()
        with lock:
            samples.extend(mine)

    elapsed = concurrently(clients, client)
    print(
        f"HTTP search_memory at {size:,} memories, {clients} client(s), {settings.HELIX_WEB_WORKERS} web workers: "
        f"{percentiles(samples)} ms, {len(samples) / elapsed:.1f} searches/s over {len(samples)} searches"
    )


def _warm(base_url: str, token: str, actor_id: str) -> None:
    """Every web worker loads the embedding model on its first search: not part of the figures."""

    def client(n: int) -> None:
        with Helixsite(base_url, token=token, actor_id=actor_id, timeout=120) as helix:
            for k in range(3):
                helix.search_memory(user_id="user001", query=f"warm up {n} {k}")

    concurrently(8, client)


def _mcp_overhead(base_url: str, token: str, actor_id: str, size: int) -> None:
    try:
        from bench.mcp_client import mcp_search_samples
    except ImportError:
        print("MCP overhead: the MCP server is not part of this build")
        return
    queries = _queries(QUERIES_PER_CLIENT, seed=time.time_ns())
    helix = Helixsite(base_url, token=token, actor_id=actor_id)
    rest = []
    for user_id, query in queries:
        started = time.perf_counter()
        helix.search_memory(user_id=user_id, query=query + " rest")
        rest.append((time.perf_counter() - started) * 1000)
    mcp = mcp_search_samples(f"{base_url}/mcp", token, actor_id, [(u, q + " mcp") for u, q in queries])
    print(f"REST search_memory at {size:,}, 1 client: {percentiles(rest)} ms")
    print(f"MCP  search_memory at {size:,}, 1 client: {percentiles(mcp)} ms (streamable HTTP, one session)")


@contextlib.contextmanager
def _server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "HELIX_API_RATE": "100000/minute", "HELIX_LOG_LEVEL": "WARNING"}
    argv = [
        sys.executable,
        "-m",
        "helixsite.web",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(settings.HELIX_WEB_WORKERS),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(argv, cwd=Path(settings.BASE_DIR), env=env, start_new_session=True)
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base_url)
        yield base_url
    finally:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def _wait_ready(base_url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{base_url}/api/schema/", timeout=5) as answer:
            if answer.status == 200:
                return
        time.sleep(0.5)
    raise RuntimeError("the web server did not start within 60 s")

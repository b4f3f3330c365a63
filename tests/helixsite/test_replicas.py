"""An installation past one machine, for real (tests/cluster.py): a PostgreSQL primary and a
streaming replica made with ``pg_basebackup``, a Redis server as the task queue, two web servers
and two worker clusters, each a process group of its own, set up with the management commands an
operator would use.

What must hold (docs/deployment.md): tools that only read are answered by the replica when it
has replayed the caller's own writes and the last change of access, by the primary otherwise;
a replica that lags past HELIX_REPLICA_MAX_LAG_SECONDS or is down is passed over; and under a
mixed load through both web servers, with a web server, a worker cluster and the replica killed
during it, no write is lost or stored twice and every caller reads its own writes.
"""

from __future__ import annotations

import itertools
import re
import tempfile
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest

from helixsite.agents.tool import READ_FROM_HEADER
from tests.cluster import Group, PostgresNode, manage, primary_and_replica, wait_for, web, worker
from tests.helixsite.agents.mcp.conftest import free_port
from tests.helixsite.test_redis_broker import RedisServer
from tests.openai_compatible_server import OpenAICompatibleServer
from tests.reliability.test_buffered_writes import stub_embedding

pytestmark = pytest.mark.slow

AGENTS = ("agent-a", "agent-b", "agent-c", "agent-d")
REPLICA = "replica_1"
MAX_LAG = 120  # seconds: generous, so that only a replica stopped on purpose lags past it
TASK_TIMEOUT = 15  # seconds
TASK_RETRY = 20  # seconds after its claim before a task whose cluster died is delivered again
CALLS_PER_AGENT = 24
TIMEOUT = 120  # seconds, for one call


@dataclass
class Installation:
    primary: PostgresNode
    replica: PostgresNode
    env: dict[str, str]
    tokens: dict[str, str]
    webs: dict[str, tuple[Group, int]] = field(default_factory=dict)
    workers: dict[str, Group] = field(default_factory=dict)
    killed: set[str] = field(default_factory=set)  # web servers killed on purpose

    def call(self, web: str, agent: str, tool: str, **arguments: Any) -> httpx2.Response:
        _, port = self.webs[web]
        return httpx2.post(
            f"http://127.0.0.1:{port}/api/v1/{tool}",
            json={"actor_id": agent, **arguments},
            headers={"Authorization": f"Bearer {self.tokens[agent]}"},
            timeout=TIMEOUT,
        )

    def ok(self, web: str, agent: str, tool: str, **arguments: Any) -> httpx2.Response:
        response = self.call(web, agent, tool, **arguments)
        assert response.status_code == 200, f"{tool} via {web}: {response.status_code} {response.text}"
        return response

    def start_web(self, name: str, **env: str) -> None:
        port = free_port()
        self.webs[name] = (web(name, port, {**self.env, **env}), port)

    def found(self, web: str, agent: str, owner: str, marker: str) -> tuple[bool, str]:
        """Whether ``agent`` finds ``marker`` among ``owner``'s memories, and who answered. A web
        server killed under the search is tried no more: the next one answers (a read may be
        asked again; a load balancer would route around the dead server)."""
        try:
            response = self.ok(web, agent, "search_memory", user_id=owner, query=marker, limit=10)
        except httpx2.TransportError:
            if web not in self.killed:
                raise
            return self.found(self.alive()[0], agent, owner, marker)
        return any(marker in r["content"] for r in response.json()["results"]), response.headers[READ_FROM_HEADER]

    def health(self, web: str) -> httpx2.Response:
        """``/healthz`` as a global admin sees it, with every check's details."""
        _, port = self.webs[web]
        headers = {"Authorization": f"Bearer {self.tokens['ops-admin']}"}
        return httpx2.get(f"http://127.0.0.1:{port}/healthz", headers=headers, timeout=TIMEOUT)

    def new_key(self, what: str) -> str:
        """A deploy key written by agent-a for "ops" through web-1: its marker."""
        marker = _marker(what)
        self.ok("web-1", "agent-a", "add_memory", user_id="ops", group_id="team", message=f"Deploy key {marker}.")
        return marker

    def alive(self) -> list[str]:
        return [name for name, (group, _) in self.webs.items() if name not in self.killed and group.alive()]

    def pause_replay(self) -> None:
        self.replica.scalar("SELECT pg_wal_replay_pause()")
        wait_for(lambda: self.replica.scalar("SELECT pg_get_wal_replay_pause_state()") == "paused", "replay paused")

    def resume_replay(self) -> None:
        self.replica.scalar("SELECT pg_wal_replay_resume()")


@pytest.fixture
def installation() -> Iterator[Installation]:
    data_dir = Path(tempfile.mkdtemp(prefix="helix-cluster-data-"))
    with (
        primary_and_replica(free_port) as (primary, replica),
        OpenAICompatibleServer() as embedder,
        tempfile.TemporaryDirectory() as redis_dir,
    ):
        embedder.queue("/v1/embeddings", *[stub_embedding] * 20_000)
        redis = RedisServer(Path(redis_dir))
        redis.start()
        env = {
            "DATABASE_URL": primary.url(),
            "DATABASE_REPLICA_URLS": replica.url(),
            "HELIX_QUEUE_URL": redis.url,
            "HELIX_REPLICA_MAX_LAG_SECONDS": str(MAX_LAG),
            "HELIX_TASK_TIMEOUT": str(TASK_TIMEOUT),
            "HELIX_TASK_RETRY_SECONDS": str(TASK_RETRY),
            "HELIX_SECRET_KEY": "cluster-test-" + uuid.uuid4().hex * 2,
            "HELIX_DATA_DIR": str(data_dir),
            "HELIX_EMBEDDINGS": "openai",
            "HELIX_EMBEDDING_BASE_URL": embedder.base_url,
            "HELIX_API_RATE": "1000000/minute",
        }
        manage(["create_workspace", "Team", "--slug", "team"], **env)
        tokens = {}
        for agent in AGENTS:
            issued = manage(["create_principal", agent, "--agent"], **env)
            tokens[agent] = re.search(r"API token \(shown once\): (\S+)", issued)[1]
            manage(["grant_role", agent, "team", "worker"], **env)
        issued = manage(["create_principal", "ops-admin", "--global-admin", "--token"], **env)
        tokens["ops-admin"] = re.search(r"API token \(shown once\): (\S+)", issued)[1]
        cluster = Installation(primary=primary, replica=replica, env=env, tokens=tokens)
        try:
            cluster.start_web("web-1")
            cluster.start_web("web-2", HELIX_ADD_BUFFERED="true")  # its adds go through the queue
            cluster.workers = {name: worker(name, env) for name in ("worker-1", "worker-2")}
            yield cluster
        finally:
            for group, _ in cluster.webs.values():
                group.stop()
            for group in cluster.workers.values():
                group.stop()
            redis.stop()


def test_an_installation_over_a_primary_a_replica_two_web_servers_and_two_workers(installation) -> None:
    reads_go_to_a_replica_that_has_the_callers_writes(installation)
    a_lagging_replica_is_passed_over(installation)
    a_change_of_access_reaches_the_replica_before_it_answers(installation)
    a_mixed_load_survives_losing_a_web_server_a_worker_and_the_replica(installation)


def reads_go_to_a_replica_that_has_the_callers_writes(cluster: Installation) -> None:
    alpha = cluster.new_key("alpha")
    # Once the replica has replayed the write, it answers the writer too.
    wait_for(lambda: cluster.found("web-2", "agent-a", "ops", alpha) == (True, REPLICA), "a read on the replica")

    cluster.pause_replay()
    try:
        beta = cluster.new_key("beta")
        # The writer reads its write, from the primary, through the other web server…
        assert cluster.found("web-2", "agent-a", "ops", beta) == (True, "primary")
        # …while another caller is still answered by the replica, which has not replayed it.
        assert cluster.found("web-2", "agent-b", "ops", beta) == (False, REPLICA)
        assert cluster.found("web-2", "agent-b", "ops", alpha) == (True, REPLICA)
    finally:
        cluster.resume_replay()
    wait_for(lambda: cluster.found("web-1", "agent-a", "ops", beta) == (True, REPLICA), "the replica to catch up")


def a_lagging_replica_is_passed_over(cluster: Installation) -> None:
    cluster.start_web("web-strict", HELIX_REPLICA_MAX_LAG_SECONDS="0")
    try:
        cluster.pause_replay()
        gamma = cluster.new_key("gamma")
        # agent-b wrote nothing: the lenient server reads the replica, the strict one will not
        # read a replica that has anything left to replay.
        assert cluster.found("web-2", "agent-b", "ops", gamma) == (False, REPLICA)
        assert cluster.found("web-strict", "agent-b", "ops", gamma) == (True, "primary")
        # Each says so in its health check, and stays healthy: the primary takes the reads.
        for name, answers in (("web-2", True), ("web-strict", False)):
            health = cluster.health(name)
            assert health.status_code == 200, health.text
            state = health.json()["checks"]["replicas"]["replicas"][REPLICA]
            assert state["reachable"] and state["bytes_behind"] > 0 and state["answers_reads"] is answers, state
    finally:
        cluster.resume_replay()
        group, _ = cluster.webs.pop("web-strict")
        group.stop()


def a_change_of_access_reaches_the_replica_before_it_answers(cluster: Installation) -> None:
    delta = cluster.new_key("delta")
    wait_for(lambda: cluster.found("web-2", "agent-d", "ops", delta) == (True, REPLICA), "agent-d reading it")
    cluster.pause_replay()
    try:
        manage(["grant_role", "agent-d", "team", "--revoke"], **cluster.env)
        # The replica still holds the old grant: the primary answers, as it answers everyone now.
        assert cluster.found("web-2", "agent-d", "ops", delta) == (False, "primary")
        assert cluster.found("web-2", "agent-b", "ops", delta) == (True, "primary")
    finally:
        cluster.resume_replay()
    manage(["grant_role", "agent-d", "team", "worker"], **cluster.env)


@dataclass
class Ledger:
    """What the callers were told, to be held against what the primary stores."""

    acknowledged: dict[str, str] = field(default_factory=dict)  # marker → owner, stored (200)
    accepted: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # marker → (agent, owner, pending id)
    unanswered: set[str] = field(default_factory=set)  # the web server died under the call
    missed_own_write: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    calls: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def a_mixed_load_survives_losing_a_web_server_a_worker_and_the_replica(cluster: Installation) -> None:
    ledger = Ledger()
    done = itertools.count()
    total = CALLS_PER_AGENT * len(AGENTS)
    kills = {total // 4: _kill_worker, total // 2: _crash_replica, 3 * total // 4: _kill_web}

    def agent_loop(agent: str) -> None:
        for step in range(CALLS_PER_AGENT):
            try:
                _one_step(cluster, ledger, agent, step)
            except Exception as exc:  # noqa: BLE001 (every failure is reported at the end)
                with ledger.lock:
                    ledger.failures.append(f"{agent} step {step}: {exc!r}")
            finished = next(done)
            if finished in kills:
                kills[finished](cluster)

    threads = [threading.Thread(target=agent_loop, args=(agent,)) for agent in AGENTS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert not ledger.failures, ledger.failures
    assert not ledger.missed_own_write, ledger.missed_own_write
    assert ledger.acknowledged and ledger.accepted

    # Every accepted buffered write is stored, the killed cluster's claims run by the other.
    pending_ids = [pending_id for _, _, pending_id in ledger.accepted.values()]
    wait_for(
        lambda: (
            cluster.primary.scalar(
                "SELECT count(*) FROM outbox_pendinginput WHERE id = ANY(%s::uuid[]) AND status = 'done'", [pending_ids]
            )
            == len(pending_ids)
        ),
        "every buffered write to be stored",
    )
    stored = _stored_per_marker(cluster.primary)
    for marker in ledger.acknowledged | ledger.accepted.keys():
        assert stored.get(marker) == 1, f"{marker} stored {stored.get(marker, 0)} times"
    for marker in ledger.unanswered:
        assert stored.get(marker, 0) <= 1, f"{marker} stored {stored[marker]} times"
    # The replica is down: the health check says so, and the web server left serves all the same.
    health = cluster.health("web-2")
    assert health.status_code == 200, health.text
    assert health.json()["checks"]["replicas"]["replicas"][REPLICA] == {"reachable": False, "answers_reads": False}
    # And each caller now reads its buffered writes, through the web server left.
    for marker, (agent, owner, _) in ledger.accepted.items():
        assert cluster.found("web-2", agent, owner, marker)[0], f"{agent} does not find its {marker}"


def _one_step(cluster: Installation, ledger: Ledger, agent: str, step: int) -> None:
    alive = cluster.alive()
    here, there = alive[step % len(alive)], alive[(step + 1) % len(alive)]
    owner, marker = f"{agent}-owner-{step}", _marker(agent)
    kind = step % 3
    if kind == 2:
        try:
            _think(cluster, agent, step, here, there)
        except httpx2.TransportError:
            if here not in cluster.killed and there not in cluster.killed:
                raise
            # A web server was killed under the session, which is abandoned as its agent would.
        return
    web = "web-2" if kind == 1 else here  # web-2 buffers its adds; web-1 stores them at once
    try:
        response = cluster.call(web, agent, "add_memory", user_id=owner, group_id="team", message=f"Note {marker}.")
    except httpx2.TransportError:
        with ledger.lock:
            ledger.unanswered.add(marker)  # the web server was killed under the call
        return
    assert response.status_code == 200, response.text
    answer = response.json()
    with ledger.lock:
        if answer.get("status") == "accepted":
            ledger.accepted[marker] = (agent, owner, answer["pending_id"])
            return
        ledger.acknowledged[marker] = owner
    # The caller reads its write at once, through another web server.
    if not cluster.found(there, agent, owner, marker)[0]:
        with ledger.lock:
            ledger.missed_own_write.append(f"{agent}: {marker} via {there}")


def _think(cluster: Installation, agent: str, step: int, here: str, there: str) -> None:
    session = f"s-{step}"
    cluster.ok(here, agent, "think_start", session_id=session, initial_thought="Which host first?")
    cluster.ok(there, agent, "think_add", session_id=session, content="db-7 is the oldest.", thought_type="observation")
    status = cluster.ok(here, agent, "think_status", session_id=session).json()
    assert [t["content"] for t in status["thoughts"]] == ["Which host first?", "db-7 is the oldest."], status
    cluster.ok(there, agent, "think_discard", session_id=session)


def _kill_worker(cluster: Installation) -> None:
    cluster.workers["worker-1"].kill()


def _crash_replica(cluster: Installation) -> None:
    cluster.replica.crash()


def _kill_web(cluster: Installation) -> None:
    # Known killed before the signal: a call it cuts off may fail before the process is reaped.
    cluster.killed.add("web-1")
    group, _ = cluster.webs["web-1"]
    group.kill()


def _stored_per_marker(primary: PostgresNode) -> dict[str, int]:
    with primary.connect() as connection:
        rows = connection.execute(
            r"""SELECT substring(content from '(m-[a-z]+-[0-9a-f]{12})') AS marker, count(*)
                FROM memory_memory WHERE deleted_at IS NULL GROUP BY 1"""
        ).fetchall()
    return {marker: count for marker, count in rows if marker}


def _marker(what: str) -> str:
    return f"m-{re.sub('[^a-z]', '', what)}-{uuid.uuid4().hex[:12]}"

"""The worker cluster's queue on Redis (HELIX_QUEUE_URL): a real Debian ``redis-server`` on a free
loopback port in a temporary directory (no persistence), a real web server and real worker
clusters (`manage.py qcluster`) on the test database.

django-q2's own Redis broker forgets a task once its cluster has taken it (BLPOP, and an
``acknowledge`` that does nothing): a cluster killed loses what it was running and what it had
read ahead. ``helixsite.task_broker.RedisBroker`` claims tasks instead; these tests hold it to
what the ORM broker promises: a task whose cluster died is delivered again once its claim is
HELIX_TASK_RETRY_SECONDS old, and one still waiting is run by the next cluster.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
from django.db import connection
from django.test import Client
from django.utils import timezone
from django_q.brokers.redis_broker import Redis as DjangoQRedisBroker
from django_q.conf import Conf
from django_q.models import OrmQ, Schedule, Task
from django_q.scheduler import scheduler
from django_q.signing import SignedPackage
from django_q.tasks import async_task, result

from helixsite.errors import api_exception_handler
from helixsite.log_format import redact
from helixsite.queue_url import QueueUnreachable
from helixsite.task_broker import RedisBroker
from memory.models import Memory
from memory.outbox.models import PendingInput
from rbac.models import Principal, Role, Workspace
from stewardship import metrics
from stewardship.selectors import health_report
from stewardship.vault.models import Backup, VaultJob
from tests.cluster import wait_for
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace
from tests.helixsite.agents.mcp.conftest import build_world, free_port, server_env
from tests.openai_compatible_server import OpenAICompatibleServer
from tests.processes import web_server, worker_cluster
from tests.reliability.test_buffered_writes import stub_embedding
from tests.threads import write_lock_held

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "queue-s3cret-pw"
DEADLINE = 300  # seconds, for every wait: generous, a busy machine is slow
TASK_TIMEOUT = 15  # seconds
TASK_RETRY = 20  # seconds after its claim before a task whose cluster died is delivered again
WINDOW_SECONDS = 10  # how long the log of a cluster waiting for Redis is watched for noise


class RedisServer:
    """Debian's redis-server, started and stopped by the test, always on the same port."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, free_port()
        self.url = f"redis://:{PASSWORD}@127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, password=PASSWORD, socket_timeout=10)

    def start(self) -> None:
        executable = shutil.which("redis-server")
        if executable is None:
            pytest.fail("these tests need Debian's redis-server: `make redis` installs it")
        command = [executable, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        command += ["--save", "", "--appendonly", "no", "--requirepass", PASSWORD, "--daemonize", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait_for(self._answers, "redis-server to answer")

    def _answers(self) -> bool:
        assert self.process is not None and self.process.poll() is None, "redis-server exited"
        try:
            return bool(self.client().ping())
        except redis.ConnectionError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)
        self.process = None

    def queued(self) -> tuple[int, int]:
        """(tasks waiting, tasks claimed by a cluster), read together in one transaction."""
        pipe = self.client().pipeline(transaction=True)
        pipe.llen("django_q:helixsite:q").zcard("django_q:helixsite:q:claimed")
        waiting, claimed = pipe.execute()
        return waiting, claimed

    def tasks(self) -> tuple[list[str], list[str]]:
        """The names of the tasks waiting and of those claimed, read together in one transaction."""
        pipe = self.client().pipeline(transaction=True)
        pipe.lrange("django_q:helixsite:q", 0, -1).zrange("django_q:helixsite:q:claimed", 0, -1)
        waiting, claimed = pipe.execute()
        return [SignedPackage.loads(p)["name"] for p in waiting], [SignedPackage.loads(p)["name"] for p in claimed]


@pytest.fixture
def redis_server(tmp_path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_queue_here(redis_server, monkeypatch) -> RedisServer:
    """This process's django-q2 on Redis, as HELIX_QUEUE_URL sets it for a server or a cluster
    (django-q2 reads its configuration once, as it is imported)."""
    monkeypatch.setattr(Conf, "BROKER_CLASS", "helixsite.task_broker.RedisBroker")
    monkeypatch.setattr(Conf, "REDIS", redis_server.url)
    monkeypatch.setattr(Conf, "ORM", None)
    return redis_server


@pytest.fixture
def settings_on_redis(redis_server) -> Iterator[dict[str, str]]:
    """The environment of the web server and the clusters: buffered writes, queued on Redis."""
    with OpenAICompatibleServer() as stub:
        stub.queue("/v1/embeddings", *[stub_embedding] * 200)
        yield {
            "HELIX_QUEUE_URL": redis_server.url,
            "HELIX_ADD_BUFFERED": "true",
            "HELIX_TASK_TIMEOUT": str(TASK_TIMEOUT),
            "HELIX_TASK_RETRY_SECONDS": str(TASK_RETRY),
            "HELIX_EMBEDDINGS": "openai",
            "HELIX_EMBEDDING_BASE_URL": stub.base_url,
            "HELIX_API_RATE": "1000000/minute",
            "HELIX_LOG_FORMAT": "json",
        }


@pytest.fixture
def agent_api(transactional_db, settings_on_redis) -> Iterator[Callable[..., dict[str, Any]]]:
    """add_memory and friends as "writer" (a worker in "team") calls them, on a real web server."""
    for slug in (Workspace.DEFAULT, Workspace.ONBOARDING):  # the flush ending a committing test took them
        Workspace.objects.update_or_create(slug=slug, defaults={"name": slug.title(), "reserved": True})
    token = build_world().writer_token

    with web_server(**settings_on_redis) as base:

        def call(tool: str, **arguments: Any) -> dict[str, Any]:
            response = httpx2.post(
                f"{base}/api/v1/{tool}",
                json={"actor_id": "writer", **arguments},
                headers={"Authorization": f"Bearer {token}"},
                timeout=120,
            )
            assert response.status_code in (200, 202), response.text
            return response.json()

        yield call


# --- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://127.0.0.1:6379/0", "is not a redis:// or rediss:// URL"),
        (f"redis://:{PASSWORD}@127.0.0.1:port/0", "is not a URL with a host and a numeric port"),
        (f"redis://:{PASSWORD}@127.0.0.1:6379/queue", "names the database 'queue': Redis databases are numbers"),
        (f"redis://:{PASSWORD}@127.0.0.1:6379/0?timeout=5", "has a query option redis-py does not take"),
    ],
)
def test_a_bad_queue_url_stops_start_up_with_one_line_naming_it_without_the_password(url, problem):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "helixsite.settings.base", "HELIX_QUEUE_URL": url}
    checked = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert checked.returncode == 1
    (line,) = checked.stderr.strip().splitlines()
    assert line.startswith("Configuration error: HELIX_QUEUE_URL=") and problem in line, line
    assert PASSWORD not in line


def test_the_password_of_a_url_never_reaches_the_log():
    line = redact(f"connecting to redis://:{PASSWORD}@10.0.0.5:6379/0 and rediss://queue:{PASSWORD}@q.example/1")

    assert PASSWORD not in line
    assert "redis://:[redacted]@10.0.0.5:6379/0" in line and "rediss://queue:[redacted]@q.example/1" in line


def test_serve_stops_with_one_clear_line_when_redis_does_not_answer():
    url = f"redis://:{PASSWORD}@127.0.0.1:{free_port()}/0"  # nothing listens there
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DJANGO_SETTINGS_MODULE="helixsite.settings.base", HELIX_QUEUE_URL=url, HELIX_PORT=str(free_port()))
    served = subprocess.run(
        [sys.executable, "manage.py", "serve"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert served.returncode == 1
    (line,) = served.stderr.strip().splitlines()
    assert line.startswith("CommandError: cannot reach the task queue (Redis at 127.0.0.1:"), line
    assert "HELIX_QUEUE_URL" in line and PASSWORD not in line


# --- the broker, in this process ------------------------------------------------------------


def test_django_q2s_own_redis_broker_forgets_a_task_it_hands_out_ours_keeps_a_claim(redis_queue_here):
    """Why RedisBroker exists: with django-q2's broker, a task handed to a cluster is nowhere in
    Redis, so a cluster that dies with it loses it."""
    theirs, ours = DjangoQRedisBroker(), RedisBroker()
    theirs.enqueue("a task")
    assert theirs.dequeue() == [(None, b"a task")]
    assert redis_queue_here.queued() == (0, 0), "gone from Redis: only the cluster's memory holds it"

    ours.enqueue("another task")
    assert ours.dequeue() == [(b"another task", b"another task")]
    assert redis_queue_here.queued() == (0, 1), "claimed: still in Redis until its result is saved"
    ours.acknowledge(b"another task")
    assert redis_queue_here.queued() == (0, 0)


def test_a_claim_older_than_the_retry_delay_is_delivered_again(redis_queue_here, monkeypatch):
    # Seconds; the setting is HELIX_TASK_RETRY_SECONDS. Long while the first claim must stay
    # young, however long the machine takes between two calls; then short, not to wait it out.
    monkeypatch.setattr(Conf, "RETRY", DEADLINE)
    broker = RedisBroker()
    broker.enqueue("first")
    broker.enqueue("second")
    assert broker.dequeue() == [(b"first", b"first")]  # its cluster dies with it: no acknowledge

    assert broker.dequeue() == [(b"second", b"second")]
    broker.acknowledge(b"second")
    monkeypatch.setattr(Conf, "RETRY", 1)
    again = wait_for(broker.dequeue, "the unacknowledged task to come back")

    assert again == [(b"first", b"first")]
    broker.acknowledge(b"first")
    assert redis_queue_here.queued() == (0, 0)


@pytest.mark.django_db
def test_the_observatory_counts_the_redis_queue_and_says_when_redis_is_away(redis_queue_here, client):
    for number in range(3):
        async_task("math.floor", number + 0.5, sync=False)
    RedisBroker().dequeue()  # a cluster takes one

    queue = metrics.queue_state()
    assert (queue["depth"], queue["claimed"]) == (2, 1)
    assert 0 <= queue["oldest_age_seconds"] < DEADLINE
    assert OrmQ.objects.count() == 0, "nothing went through the database's queue"

    redis_queue_here.stop()
    away = metrics.queue_state()
    worker = health_report().checks["worker"]
    client.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)
    page = client.get("/steward/")

    assert away["depth"] is None and "the task queue (Redis at 127.0.0.1:" in away["error"]
    assert worker["ok"] is False and "the task queue (Redis at 127.0.0.1:" in worker["error"]
    assert "is unreachable" in worker["error"] and PASSWORD not in worker["error"]
    assert client.get("/healthz").status_code == 503, "failing, not a server error"
    assert page.status_code == 200 and "unreachable" in page.content.decode()


@pytest.mark.django_db(transaction=True)  # the scheduler closes this process's connection, as in a cluster
def test_a_schedule_due_while_redis_is_away_is_one_warning_and_stays_due(redis_queue_here, caplog, monkeypatch):
    monkeypatch.setattr(Conf, "SYNC", False)  # the test settings run tasks inline; a cluster enqueues them
    Schedule.objects.all().delete()  # the migrations' schedules: this test's is the only one due
    due = timezone.now() - timedelta(minutes=1)
    schedule = Schedule.objects.create(func="math.floor", args="2.5", schedule_type=Schedule.MINUTES, next_run=due)
    redis_queue_here.stop()

    with caplog.at_level(logging.INFO, logger="django-q"):
        scheduler(broker=RedisBroker())  # what a cluster's guard runs every 30 s

    (line,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert line.levelname == "WARNING" and line.exc_info is None, "no traceback: the code did nothing wrong"
    assert "the task queue (Redis at 127.0.0.1:" in line.getMessage() and "is unreachable" in line.getMessage()
    schedule.refresh_from_db()
    assert schedule.next_run == due, "still due: it runs once Redis is back"


# --- real clusters -----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_buffered_write_is_queued_on_redis_and_a_cluster_stores_it(agent_api, settings_on_redis, redis_queue_here):
    with worker_cluster(**settings_on_redis):
        accepted = agent_api("add_memory", user_id="bob", group_id="team", message="Bob's locker is number 42.")
        stored = wait_for(lambda: Memory.objects.filter(user_id="bob", content__contains="42").first(), "the write")
        wait_for(lambda: redis_queue_here.queued() == (0, 0), "the queue to drain (the enrichment after the write)")
        heartbeat = health_report().checks["worker"]  # the cluster's heartbeat, read from Redis

    assert accepted["status"] == "accepted"
    assert agent_api("get_add_status", pending_id=accepted["pending_id"])["result"]["memory_ids"] == [str(stored.id)]
    assert heartbeat["ok"] is True and heartbeat["clusters"] == 1, heartbeat
    assert Task.objects.filter(name=f"add {accepted['pending_id']}", success=True).count() == 1
    assert OrmQ.objects.count() == 0, "nothing went through the database's queue"


@pytest.mark.slow
def test_a_killed_cluster_loses_no_task_it_held_and_none_that_waited(agent_api, settings_on_redis, redis_server):
    """One write holds the only worker (it waits on the lock a write for bob takes); the cluster's
    poller reads ahead; SIGKILL takes the whole cluster. The write it ran and the ones it had read
    ahead come back after HELIX_TASK_RETRY_SECONDS; the ones still waiting in Redis run at once."""
    owners = ["bob", "carol", "dave", "erin", "frank"]
    scope = f"rbac:group:{Workspace.objects.get(slug='team').id}"
    with write_lock_held(scope=scope, user_id="bob"), worker_cluster(**settings_on_redis) as cluster:
        pending = {"bob": agent_api("add_memory", user_id="bob", group_id="team", message="bob's desk is 7.")}
        wait_for(lambda: _running(pending["bob"]) and _waiting_on_a_lock(), "bob's write to claim and block")
        for owner in owners[1:]:
            pending[owner] = agent_api("add_memory", user_id=owner, group_id="team", message=f"{owner}'s desk is 7.")
        writes = {f"add {p['pending_id']}" for p in pending.values()}
        read_ahead = wait_for(lambda: len(writes & set(redis_server.tasks()[1])) >= 2, "the cluster to read ahead")
        os.killpg(cluster.pid, signal.SIGKILL)
        cluster.wait(timeout=60)
    waiting, claimed = redis_server.tasks()

    with worker_cluster(**settings_on_redis):
        wait_for(lambda: all(_finished(p) for p in pending.values()), "every write")
        wait_for(lambda: redis_server.queued() == (0, 0), "the queue to drain")

    assert read_ahead and writes <= set(waiting) | set(claimed), "the kill took no write out of Redis"
    assert {owner: Memory.objects.filter(user_id=owner).count() for owner in owners} == dict.fromkeys(owners, 1)
    assert {PendingInput.objects.get(pk=p["pending_id"]).status for p in pending.values()} == {"done"}
    assert PendingInput.objects.get(pk=pending["bob"]["pending_id"]).attempts == 2, "killed once, then retried"
    names = [f"add {p['pending_id']}" for p in pending.values()]
    assert Task.objects.filter(name__in=names, success=True).count() == len(owners)


@pytest.mark.slow
def test_a_cluster_waits_quietly_for_redis_and_runs_tasks_once_it_is_back(transactional_db, redis_queue_here, tmp_path):
    redis_queue_here.stop()  # the cluster starts with Redis away
    log = tmp_path / "worker.log"
    env = {"HELIX_QUEUE_URL": redis_queue_here.url, "HELIX_LOG_FORMAT": "json"}
    with worker_log(log, env):
        wait_for(lambda: _said(log, "the task queue is unreachable"), "the cluster to report Redis away")
        seen = len(_records(log))
        time.sleep(WINDOW_SECONDS)  # a window of time, to count what the log says in it
        during = _records(log)[seen:]
        redis_queue_here.start()
        task_id = async_task("math.floor", 2.5, sync=False)
        answer = result(task_id, wait=DEADLINE * 1000)
        back = _said(log, "the task queue is reachable again")

    complaints = [r for r in during if r["level"] in ("WARNING", "ERROR", "CRITICAL")]
    assert len(complaints) <= 4, "\n".join(r["msg"] for r in complaints)
    assert all("exc" not in r for r in _records(log)), "no tracebacks: the code did nothing wrong"
    assert answer == 2 and back
    assert PASSWORD not in log.read_text()


# --- Redis away while a request enqueues ------------------------------------------------------
# A buffered write is accepted once it is committed in the outbox: the request answers
# ``accepted`` and the sweep (memory.tasks.stranded_requeue) queues it once Redis is back. The
# vault, which must not hold a job nobody runs, refuses with 503 queue_unavailable instead.


@pytest.fixture
def redis_away(redis_queue_here, monkeypatch) -> RedisServer:
    """This process enqueues on a Redis that has stopped, as a web process would."""
    monkeypatch.setattr(Conf, "SYNC", False)  # the test settings run tasks inline; a web process enqueues them
    redis_queue_here.stop()
    return redis_queue_here


def writer_api() -> Any:
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def warnings_in(caplog) -> list[logging.LogRecord]:
    """The server's own and Django's (a 500 is logged there), not a library's deprecation notice."""
    ours = ("helixsite", "django", "memory", "rbac", "stewardship")
    return [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith(ours)]


@pytest.mark.django_db(transaction=True)  # the task is enqueued after commit
def test_a_buffered_write_while_redis_is_away_is_accepted_and_waits_in_the_outbox(redis_away, settings, caplog):
    settings.HELIX_ADD_BUFFERED = True
    api = writer_api()

    with caplog.at_level(logging.INFO):
        answer = api.post(
            "/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": "hi"}, format="json"
        )

    pending = PendingInput.objects.get()
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "accepted" and answer.json()["pending_id"] == str(pending.id)
    assert pending.status == "queued", "kept for the sweep"
    (line,) = warnings_in(caplog)
    assert line.name == "helixsite.queue" and line.exc_info is None, "one line, no traceback, no incident"
    assert line.getMessage().startswith(f"add {pending.id} was not queued: the task queue (Redis at 127.0.0.1:")
    assert PASSWORD not in line.getMessage()


@pytest.mark.django_db(transaction=True)
def test_an_immediate_write_while_redis_is_away_is_stored_without_its_enrichment(redis_away, settings, caplog):
    settings.HELIX_ADD_BUFFERED = False
    api = writer_api()

    with caplog.at_level(logging.INFO):
        answer = api.post(
            "/api/v1/add_memory",
            {"actor_id": "writer", "user_id": "bob", "message": "I live in Lisbon."},
            format="json",
        )

    assert answer.status_code == 200, answer.content
    assert Memory.objects.get(pk=answer.json()["memory_ids"][0]).content == "bob lives in Lisbon."
    (line,) = warnings_in(caplog)
    assert "was not queued: the task queue (Redis at 127.0.0.1:" in line.getMessage() and line.exc_info is None
    assert line.getMessage().startswith("enrich ")


@pytest.mark.django_db(transaction=True)
def test_a_backup_asked_for_while_redis_is_away_is_refused_503_and_holds_no_job(redis_away, settings, tmp_path):
    settings.HELIX_BACKUP_DIR = tmp_path / "backups"
    room = Client()
    room.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)

    refused = room.post("/steward/backups/")
    job = VaultJob.objects.get()
    redis_away.start()
    asked_again = room.post("/steward/backups/")

    assert refused.status_code == 503 and "The task queue could not be reached" in refused.content.decode()
    assert (job.status, job.error) == ("failed", "The task queue could not be reached; nothing was done.")
    assert Backup.objects.get(pk=job.backup_id).status == "failed"
    assert asked_again.status_code == 302, "the failed job does not hold the vault"
    assert VaultJob.objects.filter(status="queued").count() == 1 and redis_away.queued() == (1, 0)


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_asked_for_while_redis_is_away_says_the_schedule_will_take_it(redis_away):
    room = Client()
    room.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)

    answer = room.post("/steward/atlas/refresh/", HTTP_HX_REQUEST="true")

    assert answer.status_code == 200
    assert "The task queue cannot be reached right now; the schedule takes a snapshot" in answer.content.decode()


def test_an_api_call_that_meets_redis_away_answers_503_queue_unavailable():
    """Any enqueue not handled where it is made: the outage, told, never a 500."""
    answer = api_exception_handler(QueueUnreachable("the task queue (Redis at 10.0.0.5:6379/0) is unreachable"), {})

    assert answer.status_code == 503 and answer["Retry-After"] == "5"
    assert answer.data["error"]["code"] == "queue_unavailable" and "10.0.0.5" not in answer.data["error"]["message"]


@pytest.mark.slow
def test_a_write_accepted_while_redis_is_away_is_stored_once_when_it_is_back(
    agent_api, settings_on_redis, redis_queue_here
):
    redis_queue_here.stop()
    accepted = agent_api("add_memory", user_id="bob", group_id="team", message="Bob's locker is number 42.")
    while_away = agent_api("get_add_status", pending_id=accepted["pending_id"])
    redis_queue_here.start()  # empty: it kept nothing, and the task never reached it
    Schedule.objects.all().delete()  # the migrations' schedules: only the sweep is due
    Schedule.objects.create(func="memory.tasks.stranded_requeue", schedule_type=Schedule.MINUTES, minutes=5)

    with worker_cluster(**settings_on_redis, HELIX_REQUEUE_AFTER_SECONDS="1"):
        stored = wait_for(lambda: Memory.objects.filter(user_id="bob", content__contains="42").first(), "the write")
        wait_for(lambda: redis_queue_here.queued() == (0, 0), "the queue to drain (the enrichment after the write)")
        done = agent_api("get_add_status", pending_id=accepted["pending_id"])

    assert (accepted["status"], while_away["status"]) == ("accepted", "queued")
    assert done["status"] == "done" and done["result"]["memory_ids"] == [str(stored.id)]
    assert Memory.objects.filter(user_id="bob").count() == 1
    assert PendingInput.objects.get(pk=accepted["pending_id"]).attempts == 1
    assert Task.objects.filter(name=f"add {accepted['pending_id']}", success=True).count() == 1


# --- helpers -------------------------------------------------------------------------------


@contextlib.contextmanager
def worker_log(log: Path, env: dict[str, str]) -> Iterator[None]:
    """A cluster whose log (JSON lines) goes to ``log``; it must still run when the block ends."""
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            env=server_env(HELIX_WORKER_PROCESSES="1", **env),
            start_new_session=True,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield
        assert process.poll() is None, "the cluster exited"
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # anything of the cluster still left


def _records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def _said(log: Path, words: str) -> bool:
    return any(words in record["msg"] for record in _records(log))


def _running(accepted: dict[str, Any]) -> bool:
    return PendingInput.objects.filter(pk=accepted["pending_id"], status="running").exists()


def _finished(accepted: dict[str, Any]) -> bool:
    return PendingInput.objects.filter(pk=accepted["pending_id"], status__in=("done", "failed")).exists()


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        return cursor.fetchone()[0] > 0

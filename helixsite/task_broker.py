"""The worker cluster's queue: django-q2's ORM broker (the default), or its Redis broker when
HELIX_QUEUE_URL names a Redis server; either patient with its server out of reach.

The ORM broker.

As it comes, django-q2 meets a database that went away with an error line from the cluster's
heartbeat every half second (every tenth of a second while it stops) and, every ten seconds, a
traceback from the queue poller, which then dies and is started again. Here the poller waits
instead, trying again at growing intervals up to a few seconds (so a stop request is not kept
waiting longer), and the log says so when the outage begins, at growing intervals while it
lasts, and when the database is back; the heartbeat, which the poller speaks for, is skipped
until the next try. A cluster may start while the database is out of reach, and nothing needs
restarting when the database returns.

The monitor, which saves each finished task's result and then takes the task off the queue,
waits for the database the same way. As it comes, a database that went away just as a task
finished cost a traceback, the result, and the monitor itself (started again, CRITICAL); worse,
the task, left on the queue, ran a second time once its retry delay had passed.

The Redis broker. As it comes, django-q2's takes a task off the Redis list with BLPOP and its
``acknowledge`` does nothing: a task is gone from Redis the moment the cluster's poller has it,
and the poller reads ahead (up to workers² tasks wait in the cluster's memory), so a cluster
killed (SIGKILL, out of memory, the machine lost) loses the task it was running and every task
it had read ahead, and a task that failed is never tried again. Here a task is claimed instead:
taken off the list and recorded with the time of its claim in one step (a Lua script, on the
Redis server's clock), and taken off the record when its result is saved. A claim older than
HELIX_TASK_RETRY_SECONDS puts the task back at the head of the list, so, as with the ORM broker,
a task whose cluster died is delivered again, and a failed one is tried again up to
``max_attempts`` times. What remains lost: a task whose RPUSH Redis itself lost (a Redis without
persistence restarting, or failing over to a replica that had not yet received it).

With Redis out of reach, the poller waits at growing intervals and the log says so when the
outage begins, at growing intervals while it lasts, and when Redis is back (logger
``helixsite.queue``); the heartbeat, kept in Redis, is skipped until the next try, and the
monitor waits to take a finished task off the record. A cluster may start while Redis is away.
A web process enqueuing then gets ``QueueUnreachable`` (after a few quick retries), naming the
queue's server, never its password.

Enqueuing from a request: ``task_enqueue`` (``task_enqueue_after_commit``). With the queue in the
database, a task is enqueued if the request could write at all; with Redis, the queue can be away
while the database is not. Work whose record in the database is its promise (a buffered write
queued in the outbox, a profile marked stale) is then not queued: one WARNING line names the task
and the queue's server, the request answers as if it had been (the record is committed), and the
sweep ``memory.tasks.stranded_requeue`` hands the task to the queue once it is back. A caller for
whom a task not queued is a refusal (the vault) checks for None and answers 503
``queue_unavailable`` (``helixsite.errors.QueueUnavailable``).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from functools import partial
from typing import Any

import redis
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone
from django_q import monitor
from django_q.brokers import get_broker
from django_q.brokers.orm import ORM
from django_q.brokers.redis_broker import Redis as DjangoQRedis
from django_q.conf import Conf
from django_q.models import OrmQ
from django_q.signing import BadSignature, SignedPackage
from django_q.tasks import async_task
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

from helixsite.db.outage import RETRY_MAX_SECONDS, Outage, is_unreachable, reason
from helixsite.queue_url import QueueUnreachable, redis_location

_polling = Outage(what="worker")  # per process: only the cluster's poller process uses it
_results = Outage(what="worker results")  # the monitor process's


def _patiently(call: Any, *args: Any) -> Any:
    """``call(*args)``, tried again on a new connection for as long as the database is out of reach."""
    connection = connections[Conf.ORM or DEFAULT_DB_ALIAS]  # results go to the database with either broker
    while True:
        try:
            result = call(*args)
        except Exception as exc:
            if not is_unreachable(exc) or connection.in_atomic_block:
                raise
            connection.close()
            _results.failed(exc)
            time.sleep(max(_results.seconds_until_due(), 0.1))
            continue
        _results.recovered()
        return result


def _database_reached() -> None:
    with connections[Conf.ORM or DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")


_save_task = monitor.save_task


def _save_task_once_reachable(task: dict[str, Any], broker: Any) -> None:
    """django-q2's own, once a connection can be had (it logs, and drops, a result it could not
    save). A task run inline (``sync``) is saved by the caller's own connection, as it comes."""
    if not Conf.SYNC:
        _patiently(_database_reached)
    _save_task(task, broker)


monitor.save_task = _save_task_once_reachable


def _enqueued_at(payload: Any) -> datetime | None:
    """When the task in ``payload`` (a signed package) was enqueued."""
    try:
        task = SignedPackage.loads(payload)
    except BadSignature:
        return None
    started = task.get("started") if isinstance(task, dict) else None
    return started if isinstance(started, datetime) else None


class OrmBroker(ORM):
    heartbeat_resumes = 0.0  # monotonic time before which the heartbeat is not tried

    def oldest_waiting_since(self) -> datetime | None:
        """When the task longest in line (not claimed by a cluster) was enqueued."""
        waiting = self.get_connection().filter(key=self.list_key, lock__lte=timezone.now())
        oldest = waiting.order_by("id").first()
        return _enqueued_at(oldest.payload) if oldest else None

    @staticmethod
    def get_connection(list_key: str | None = None) -> Any:
        # The ORM broker asks, before each use, whether a transaction is open, which connects:
        # a cluster starting while the database is out of reach died of it. The queryset fails
        # when used instead, and that is waited out like any other failure.
        try:
            return ORM.get_connection(list_key)
        except Exception as exc:
            if not is_unreachable(exc):
                raise
            return OrmQ.objects.using(Conf.ORM)

    def dequeue(self) -> list[tuple[Any, Any]] | None:
        try:
            tasks = super().dequeue()
        except Exception as exc:
            if not is_unreachable(exc):
                raise
            _polling.failed(exc)
            time.sleep(_polling.seconds_until_due())
            return None
        _polling.recovered()
        return tasks

    def acknowledge(self, task_id: Any) -> Any:
        """Take a finished task off the queue, waiting for the database if need be: left on it,
        the task would run again."""
        return _patiently(super().acknowledge, task_id)

    def set_stat(self, key: str, value: str, timeout: int) -> Any:
        """The cluster's heartbeat (in the database cache). A connection that failed is dropped and
        the heartbeat tried once more on a new one: a session ended under a reachable database (a
        restore's switch ends every session) is not an outage, and a heartbeat kept on the dead
        connection failed until something else replaced it, so a running worker looked dead for
        many seconds. Only a database still out of reach pauses the heartbeat."""
        if time.monotonic() < self.heartbeat_resumes:
            return None
        for _ in range(2):
            try:
                return super().set_stat(key, value, timeout)
            except Exception as exc:
                if not is_unreachable(exc):
                    raise
                connections[DEFAULT_DB_ALIAS].close()  # the database cache's connection
        self.heartbeat_resumes = time.monotonic() + RETRY_MAX_SECONDS
        return None


# --- Redis (HELIX_QUEUE_URL) ---------------------------------------------------------------

queue_log = logging.getLogger("helixsite.queue")
QUEUE_ERRORS = (redis.ConnectionError, redis.TimeoutError)  # refused, reset, timed out, loading, auth


def _queue_server() -> str:
    return f"the task queue (Redis at {redis_location(Conf.REDIS)})"


_queue_polling = Outage(what="worker", subject="the task queue", log=queue_log)
_queue_results = Outage(what="worker results", subject="the task queue", log=queue_log)

# Up to ARGV[2] tasks off the list KEYS[1], each recorded in the claims KEYS[2] with the time of
# its claim, in one step: no task is ever only in a cluster's memory. Claims older than ARGV[1]
# seconds (their cluster died, or the task failed) first go back to the head of the list.
_CLAIM = """
local now = redis.call('TIME')
local at = tonumber(now[1]) + tonumber(now[2]) / 1000000
local overdue = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', at - tonumber(ARGV[1]), 'LIMIT', 0, 100)
for _, task in ipairs(overdue) do
  redis.call('ZREM', KEYS[2], task)
  redis.call('LPUSH', KEYS[1], task)
end
local taken = {}
for _ = 1, tonumber(ARGV[2]) do
  local task = redis.call('LPOP', KEYS[1])
  if not task then break end
  redis.call('ZADD', KEYS[2], at, task)
  taken[#taken + 1] = task
end
return taken
"""

_clients: dict[str, redis.Redis] = {}


class RedisBroker(DjangoQRedis):
    """django-q2's Redis broker with claims (see the module's docstring): a task's ack id is its
    payload, which stays in the claims until its result is saved."""

    heartbeat_resumes = 0.0  # monotonic time before which the heartbeat is not tried

    def __init__(self, list_key: str | None = None) -> None:
        super().__init__(list_key)
        self.claims_key = f"{self.list_key}:claimed"
        self._claim = self.connection.register_script(_CLAIM)

    @staticmethod
    def get_connection(list_key: str | None = None) -> redis.Redis:
        """One client per process and URL (django-q2 makes a broker, and so a client, for every
        task it enqueues). redis-py's pool notices a fork and opens new connections in the child."""
        client = _clients.get(Conf.REDIS)
        if client is None:
            client = _clients[Conf.REDIS] = redis.Redis.from_url(
                Conf.REDIS,
                socket_connect_timeout=5,
                socket_timeout=10,  # no command here blocks on the server
                health_check_interval=30,
                # A blip is retried within a second; a longer outage is the callers' to wait out.
                retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), 3),
            )
        return client

    def _reached(self, call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except QUEUE_ERRORS as exc:
            raise QueueUnreachable(f"{_queue_server()} is unreachable ({reason(exc)})") from None

    def check(self) -> None:
        """Raise ``QueueUnreachable`` unless Redis answers now."""
        self._reached(self.connection.ping)

    def enqueue(self, task: str) -> Any:
        return self._reached(super().enqueue, task)

    def ping(self) -> bool:
        """Checked as the cluster starts: it starts all the same, and its poller waits for Redis."""
        try:
            return bool(self.connection.ping())
        except QUEUE_ERRORS as exc:
            _queue_polling.failed(exc)
            return True

    def dequeue(self) -> list[tuple[Any, Any]] | None:
        try:
            taken = self._claim(keys=[self.list_key, self.claims_key], args=[Conf.RETRY, Conf.BULK])
        except QUEUE_ERRORS as exc:
            _queue_polling.failed(exc)
            time.sleep(_queue_polling.seconds_until_due())
            return None
        _queue_polling.recovered()
        if not taken:
            time.sleep(Conf.POLL)  # an empty queue: spare the CPU, as the ORM broker does
            return None
        return [(task, task) for task in taken]

    def acknowledge(self, task_id: Any) -> Any:
        """Take a finished task off the claims, waiting for Redis if need be: left there, the task
        would be delivered again once its claim is HELIX_TASK_RETRY_SECONDS old."""
        while True:
            try:
                removed = self.connection.zrem(self.claims_key, task_id)
            except QUEUE_ERRORS as exc:
                _queue_results.failed(exc)
                time.sleep(max(_queue_results.seconds_until_due(), 0.1))
                continue
            _queue_results.recovered()
            return removed

    def fail(self, task_id: Any) -> None:
        """A task that cannot be read (signed with another key): dropped, as the ORM broker does."""
        self.acknowledge(task_id)

    def queue_size(self) -> int:
        """Tasks waiting for a cluster (not claimed)."""
        return int(self._reached(self.connection.llen, self.list_key))

    def lock_size(self) -> int:
        """Tasks claimed by a cluster and not finished (or whose cluster died, until re-delivered)."""
        return int(self._reached(self.connection.zcard, self.claims_key))

    def oldest_waiting_since(self) -> datetime | None:
        """When the task longest in line was enqueued."""
        oldest = self._reached(self.connection.lindex, self.list_key, 0)
        return _enqueued_at(oldest) if oldest is not None else None

    def purge_queue(self) -> Any:
        return self.connection.delete(self.list_key, self.claims_key)

    def delete_queue(self) -> Any:
        return self.purge_queue()

    def set_stat(self, key: str, value: str, timeout: int) -> Any:
        if time.monotonic() < self.heartbeat_resumes:
            return None
        try:
            return super().set_stat(key, value, timeout)
        except QUEUE_ERRORS:
            self.heartbeat_resumes = time.monotonic() + RETRY_MAX_SECONDS  # the poller reports the outage
            return None

    def get_stat(self, key: str) -> Any:
        return self._reached(super().get_stat, key)

    def get_stats(self, pattern: str) -> list[Any] | None:
        """The clusters' heartbeats, found with SCAN: KEYS would hold up a shared Redis."""
        keys = self._reached(lambda: list(self.connection.scan_iter(match=pattern, count=500)))
        return self._reached(self.connection.mget, keys) if keys else None


def queue_broker() -> OrmBroker | RedisBroker:
    """The configured broker (Q_CLUSTER's broker_class is one of these two): its ``queue_size``,
    ``lock_size`` and ``oldest_waiting_since`` raise ``QueueUnreachable`` when Redis is out of reach."""
    return get_broker()


def queue_behind(*, seconds: float) -> bool:
    """Whether the task longest in line has waited more than ``seconds``: the clusters are behind,
    not missing tasks. Raises ``QueueUnreachable`` when Redis is out of reach."""
    since = queue_broker().oldest_waiting_since()
    return since is not None and (timezone.now() - since).total_seconds() > seconds


# --- enqueuing from a request ----------------------------------------------------------------


def task_enqueue(func: str, *args: Any, **options: Any) -> str | None:
    """``async_task(func, *args, **options)``: the task's id, or None when Redis is out of reach,
    with one WARNING line naming the task and the queue's server (no traceback: nothing is wrong
    with the code, and what happens next is the caller's to say)."""
    try:
        return async_task(func, *args, **options)
    except QueueUnreachable as exc:
        queue_log.warning("%s was not queued: %s", options.get("task_name") or func, exc)
        return None


def task_enqueue_after_commit(func: str, *args: Any, **options: Any) -> None:
    """``task_enqueue`` once the transaction commits (at once outside one)."""
    transaction.on_commit(partial(task_enqueue, func, *args, **options))

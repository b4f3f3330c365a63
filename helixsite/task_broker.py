"""The worker cluster's queue: django-q2's ORM broker, patient with a database out of reach.

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
"""

from __future__ import annotations

import time
from typing import Any

from django.db import connections
from django_q import monitor
from django_q.brokers.orm import ORM
from django_q.conf import Conf
from django_q.models import OrmQ

from helixsite.db.outage import RETRY_MAX_SECONDS, Outage, is_unreachable

_polling = Outage(what="worker")  # per process: only the cluster's poller process uses it
_results = Outage(what="worker results")  # the monitor process's


def _patiently(call: Any, *args: Any) -> Any:
    """``call(*args)``, tried again on a new connection for as long as the database is out of reach."""
    connection = connections[Conf.ORM]
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
    with connections[Conf.ORM].cursor() as cursor:
        cursor.execute("SELECT 1")


_save_task = monitor.save_task


def _save_task_once_reachable(task: dict[str, Any], broker: Any) -> None:
    """django-q2's own, once a connection can be had (it logs, and drops, a result it could not
    save). A task run inline (``sync``) is saved by the caller's own connection, as it comes."""
    if not Conf.SYNC:
        _patiently(_database_reached)
    _save_task(task, broker)


monitor.save_task = _save_task_once_reachable


class OrmBroker(ORM):
    heartbeat_resumes = 0.0  # monotonic time before which the heartbeat is not tried

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
        if time.monotonic() < self.heartbeat_resumes:
            return None
        try:
            return super().set_stat(key, value, timeout)
        except Exception as exc:
            if not is_unreachable(exc):
                raise
            self.heartbeat_resumes = time.monotonic() + RETRY_MAX_SECONDS
            return None

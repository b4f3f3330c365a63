"""The database out of reach: how an error is recognised as that, and one process's outage.

"Unreachable" means no connection can be had: the server is down, starting, shutting down,
refusing this database or this many clients, or the pool has none to give in time. A query
that fails on a working connection (a constraint, a cancelled statement, a lock) is not.

An ``Outage`` is this process's view of one: when it began, when to try again (at growing
intervals), and what the log says, which is one WARNING when it begins, one at growing
intervals while it lasts and one INFO when it ends, never a line per failed attempt.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import psycopg
from django.db import utils as django_db
from psycopg_pool import PoolClosed, PoolTimeout, TooManyRequests

from helixsite.embedded_db import EmbeddedDatabaseError

logger = logging.getLogger("helixsite.database")

# SQLSTATEs a server answers a connection with when it will not take it now: any "08"
# (connection exception), too_many_connections, admin_shutdown, crash_shutdown, cannot_connect_now,
# and what a restore's switch of databases answers for a moment (stewardship.vault.restore): the
# database's name not yet given to the restored one (invalid_catalog_name), or the database not
# accepting connections (object_not_in_prerequisite_state, which queries raise for other reasons:
# recognised by its message).
_REFUSALS = {"53300", "57P01", "57P02", "57P03", "3D000"}
_NOT_ACCEPTING = ("55000", "is not currently accepting connections")
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 5.0  # a worker asked to stop waits at most this long between tries
REPORT_MAX_SECONDS = 30.0


def is_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` (Django's wrapper or the driver's error under it) means no connection."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, EmbeddedDatabaseError | PoolTimeout | PoolClosed | TooManyRequests):
            return True
        if isinstance(seen, psycopg.OperationalError):
            state = seen.sqlstate
            not_accepting = state == _NOT_ACCEPTING[0] and _NOT_ACCEPTING[1] in str(seen)
            return state is None or state.startswith("08") or state in _REFUSALS or not_accepting
        if not isinstance(seen, django_db.Error):
            return False
        seen = seen.__cause__  # Django re-raises the driver's error as its own, from it
    return False


def reason(exc: BaseException) -> str:
    """The first line of the error: what the operator needs, without the driver's hint lines."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else exc.__class__.__name__


class Outage:
    """Whether this process finds the database (or another server: ``subject``, logged to
    ``log``) out of reach, since when, and when to try again."""

    def __init__(self, *, what: str, subject: str = "the database", log: logging.Logger = logger) -> None:
        self.what = what  # who is failing to connect, for the log: "web", "worker polling"…
        self.subject, self.log = subject, log
        self._lock = threading.Lock()
        self._since: float | None = None
        self._delay = 0.0
        self._next_try = 0.0
        self._next_report = 0.0
        self._failures = 0
        self.last_reason = ""

    @property
    def active(self) -> bool:
        return self._since is not None

    def due(self) -> bool:
        """Whether the next attempt may be made now (always, unless an outage is under way)."""
        return self._since is None or time.monotonic() >= self._next_try

    def seconds_until_due(self) -> float:
        return 0.0 if self._since is None else max(self._next_try - time.monotonic(), 0.0)

    def failed(self, exc: BaseException) -> None:
        """An attempt found the server unreachable: back off, and say so if it is time to."""
        now = time.monotonic()
        with self._lock:
            self._failures += 1
            self.last_reason = reason(exc)
            if self._since is None:
                self._since, self._delay, self._next_report = now, RETRY_FIRST_SECONDS, now
            else:
                self._delay = min(self._delay * 2, RETRY_MAX_SECONDS)
            self._next_try = now + self._delay
            if now < self._next_report:
                return
            elapsed, failures = now - self._since, self._failures
            self._next_report = now + min(max(2 * elapsed, RETRY_MAX_SECONDS), REPORT_MAX_SECONDS)
        fields = {"outage_seconds": round(elapsed, 1), "failed_attempts": failures, "reason": self.last_reason}
        if failures == 1:
            message = "%s: %s is unreachable (%s); retrying at growing intervals up to %ss"
            self.log.warning(
                message, self.what, self.subject, self.last_reason, RETRY_MAX_SECONDS, extra={"fields": fields}
            )
        else:
            message = "%s: %s is still unreachable after %.0fs (%s)"
            self.log.warning(message, self.what, self.subject, elapsed, self.last_reason, extra={"fields": fields})

    def recovered(self) -> None:
        """An attempt succeeded: the outage, if there was one, is over."""
        with self._lock:
            if self._since is None:
                return
            elapsed, failures = time.monotonic() - self._since, self._failures
            self._since, self._failures = None, 0
        fields = {"outage_seconds": round(elapsed, 1), "failed_attempts": failures}
        message = "%s: %s is reachable again after %.0fs"
        self.log.info(message, self.what, self.subject, elapsed, extra={"fields": fields})


def connect_directly(params: dict[str, Any], *, timeout: int) -> psycopg.Connection:
    """A new connection with Django's connection ``params``, past any pool, giving up after
    ``timeout`` seconds (or the configured connect timeout, if shorter)."""
    configured = int(params.get("connect_timeout") or timeout)
    return psycopg.connect(**{**params, "connect_timeout": max(min(configured, timeout), 1)})

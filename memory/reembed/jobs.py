"""The job row and the lock that lets one re-embed run at a time.

The lock is a PostgreSQL advisory lock held by a connection of the run's own: a run killed
outright (``kill -9``, a lost machine) lets go of it with the connection, so a job left
``running`` without the lock held was interrupted, and the next run resumes it.
"""

from __future__ import annotations

import contextlib
from types import TracebackType

import psycopg
from django.db import connection
from django.utils import timezone

from helixsite.db.outage import connect_directly
from helixsite.errors import Conflict
from memory.models import ReembedJob

# The advisory lock's two keys; PostgreSQL shows them as pg_locks' classid and objid.
LOCK_KEYS = (0x48656C78, 0x0E0B)
CONNECT_TIMEOUT_SECONDS = 10
UNFINISHED = (ReembedJob.Status.RUNNING, ReembedJob.Status.SWITCHING)


class RunLock:
    """Held for as long as a run works; a second run is refused while it is."""

    def __init__(self) -> None:
        self._holder: psycopg.Connection | None = None

    def __enter__(self) -> RunLock:
        holder = connect_directly(connection.get_connection_params(), timeout=CONNECT_TIMEOUT_SECONDS)
        holder.autocommit = True
        (acquired,) = holder.execute("SELECT pg_try_advisory_lock(%s, %s)", LOCK_KEYS).fetchone() or (False,)
        if not acquired:
            holder.close()
            raise Conflict(_running_message(job_unfinished()), code="reembed_running")
        self._holder = holder
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._holder is not None:
            # Let go at once: a closed connection's lock goes only when its server process has ended,
            # and a run started just after this one (a retry) would be refused until then.
            with contextlib.suppress(psycopg.Error):
                self._holder.execute("SELECT pg_advisory_unlock(%s, %s)", LOCK_KEYS)
            with contextlib.suppress(psycopg.Error):  # the lock goes with the connection in any case
                self._holder.close()
            self._holder = None


def _running_message(job: ReembedJob | None) -> str:
    if job is None:
        return "A re-embed is running; wait for it to finish."
    return (
        f"A re-embed to {job.target} is running ({job.phase or job.status}, {job.done:,} of {job.total:,} rows, "
        f"started {job.started_at:%Y-%m-%d %H:%M} UTC); wait for it to finish. If its process was stopped, "
        "a later run resumes where it stopped."
    )


def lock_held() -> bool:
    """Whether a run works now (in any process)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
                   AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                   AND classid = %s::oid AND objid = %s::oid AND objsubid = 2)""",
            LOCK_KEYS,
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def job_newest() -> ReembedJob | None:
    return ReembedJob.objects.first()


def job_unfinished() -> ReembedJob | None:
    return ReembedJob.objects.filter(status__in=UNFINISHED).first()


def job_save(job: ReembedJob, **changes: object) -> None:
    """Record how far the job got; its row is written at once (in the caller's transaction, if any)."""
    for name, value in changes.items():
        setattr(job, name, value)
    job.updated_at = timezone.now()
    job.save(update_fields=[*changes, "updated_at"])

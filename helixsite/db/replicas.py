"""Reads on PostgreSQL streaming replicas (``DATABASE_REPLICA_URLS``), with read-your-writes.

Every write goes to the primary (``default``). A tool that only reads (``ToolApi.reads``) runs
with a replica chosen for the call: the ORM reaches it through ``ReplicaRouter``, and raw SQL
on the read path through ``reader()``. Anything else (writes, the room, the worker, the write
path's own reads) keeps to the primary, so code that never heard of replicas stays correct.

A replica is chosen only if it has replayed

- the caller's own last write: after each write call (and each buffered add the worker
  stores for a caller) the primary's WAL insert position is kept in ``agents_readposition``
  under the caller's key, so no agent misses its own write because of replica lag;
- the last change of who may read what (roles, memberships, federations, tokens): kept under
  ``access`` the same way, so a revoked member never reads on a replica that has not yet
  replayed the revocation;
- and everything older than ``HELIX_REPLICA_MAX_LAG_SECONDS``: a replica whose newest replayed
  commit is older than that while the primary has moved on is passed over.

A replica that cannot be reached is marked down (this process's ``Outage`` for it, retried at
growing intervals); a call whose replica fails under it runs again on the primary. With no
replica usable, reads go to the primary. None of this runs when no replica is configured.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db import Error as DatabaseError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models.signals import m2m_changed, post_delete, post_save

from helixsite.db.base import DatabaseWrapper, outage_of
from helixsite.db.outage import is_unreachable

logger = logging.getLogger("helixsite.database")

ACCESS_KEY = "access"
# The models that say who may read what: a change to one must reach a replica before it answers.
ACCESS_MODELS = {
    "auth.user",
    "auth.group",
    "guardian.userobjectpermission",
    "guardian.groupobjectpermission",
    "rbac.principal",
    "rbac.workspace",
    "rbac.membership",
    "rbac.federation",
    "rbac.federationmember",
}
REPLICA_PREFIX = "replica_"
T = TypeVar("T")

# The alias this call reads from; None: the primary, and the ORM's own choice for a model.
_reading: contextvars.ContextVar[str | None] = contextvars.ContextVar("helix_reading", default=None)
# Where the last ``read_as`` in this context was answered: "primary" or a replica's alias.
_answered: contextvars.ContextVar[str] = contextvars.ContextVar("helix_answered", default="primary")
_turn = itertools.count()


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias.startswith(REPLICA_PREFIX)]


def reader() -> BaseDatabaseWrapper:
    """The connection the read path's raw SQL runs on: this call's replica, or the primary."""
    return connections[_reading.get() or DEFAULT_DB_ALIAS]


def prepared_reader(prepared: bool = True) -> CursorWrapper:
    """A cursor on ``reader()`` whose statements are prepared on the server
    (``helixsite.db.base.DatabaseWrapper.prepared_cursor``: which statements belong there); a
    plain one when not ``prepared``."""
    return cast("DatabaseWrapper", reader()).prepared_cursor() if prepared else reader().cursor()


class ReplicaRouter:
    """Installed (``DATABASE_ROUTERS``) only when replicas are configured."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return _reading.get()

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # every alias holds the same database

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS


def read_as(user_id: int | None, read: Callable[[], T]) -> T:
    """``read()`` on a replica that has replayed what ``user_id`` wrote, else on the primary.
    A replica that fails under it is marked down and ``read()`` runs again on the primary."""
    alias = choose(user_id) if replica_aliases() else None
    _answered.set("primary")
    if alias is None:
        return read()
    token = _reading.set(alias)
    try:
        result = read()
        _answered.set(alias)
        return result
    except DatabaseError as exc:
        if not _replica_failed(alias, exc):
            raise
    finally:
        _reading.reset(token)
    return read()


def answered_by() -> str:
    """Where this context's last ``read_as`` was answered: "primary" or a replica's alias."""
    return _answered.get()


def choose(user_id: int | None) -> str | None:
    """A replica fit to answer ``user_id`` now, or None for the primary."""
    needed, primary_at = _positions(user_id)
    aliases = replica_aliases()
    first = next(_turn) % len(aliases)
    for alias in aliases[first:] + aliases[:first]:
        state = _state(alias, primary_at)
        if state is not None and state.replayed >= needed and state.lag <= settings.HELIX_REPLICA_MAX_LAG_SECONDS:
            return alias
    return None


def states() -> dict[str, dict[str, Any]]:
    """Each replica as this process finds it now, for /healthz: reachable, replaying, how far
    behind the primary, and whether it answers reads (one that does not is simply passed over)."""
    _, primary_at = _positions(None)
    report: dict[str, dict[str, Any]] = {}
    for alias in replica_aliases():
        state = _state(alias, primary_at)
        if state is None:
            report[alias] = {"reachable": False, "answers_reads": False}
            continue
        lag = None if state.lag == float("inf") else round(state.lag, 3)
        usable = state.lag <= settings.HELIX_REPLICA_MAX_LAG_SECONDS
        report[alias] = {"reachable": True, "bytes_behind": max(primary_at - state.replayed, 0)}
        report[alias].update(lag_seconds=lag, answers_reads=usable)
    return report


@dataclass(frozen=True)
class _State:
    replayed: int  # how far it has replayed the primary's WAL, in bytes
    lag: float  # seconds its newest replayed commit is behind, 0 when it has everything


def _state(alias: str, primary_at: int) -> _State | None:
    """Where the replica ``alias`` stands, or None if it is down (marked so) or not a replica."""
    outage = outage_of(alias)
    if outage.active and not outage.due():
        return None
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute(
                """SELECT pg_last_wal_replay_lsn() - '0/0'::pg_lsn,
                          EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp())"""
            )
            replayed, age = cursor.fetchone()
    except DatabaseError as exc:
        if not _replica_failed(alias, exc):
            raise
        return None
    if replayed is None:
        logger.warning("%s is not a streaming replica (not in recovery); reading from the primary", alias)
        return None
    replayed = int(replayed)
    lag = 0.0 if replayed >= primary_at else float("inf") if age is None else float(age)
    return _State(replayed=replayed, lag=lag)


def write_as(user_id: int | None, write: Callable[[], T]) -> T:
    """``write()`` on the primary, after which ``user_id``'s reads wait for a replica to have
    replayed it. Also after a failure: a call that fails half-way may have committed a part."""
    try:
        result = write()
    except Exception:
        with contextlib.suppress(DatabaseError):  # the call's own error is the one to report
            wrote(user_id)
        raise
    wrote(user_id)
    return result


def wrote(user_id: int | None) -> None:
    """The caller ``user_id`` has just committed a write: reads for it wait for a replica to
    replay it (or go to the primary). Called after the commit, never inside a transaction."""
    if user_id is not None and replica_aliases():
        _keep_position(f"user:{user_id}")


def access_changed() -> None:
    """Who may read what has changed (or will, once the current transaction commits): no replica
    answers anyone until it has replayed that."""
    if replica_aliases():
        transaction.on_commit(lambda: _keep_position(ACCESS_KEY))


def watch_access() -> None:
    """Keep ``access`` whenever a model that says who may read what is saved or deleted."""
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_access_model_changed, dispatch_uid=f"helixsite.db.replicas.{id(signal)}")


def _access_model_changed(sender: Any, **kwargs: Any) -> None:
    changed = {sender, kwargs.get("model")}  # m2m_changed names the other side's model too
    if any(getattr(getattr(m, "_meta", None), "label_lower", "") in ACCESS_MODELS for m in changed):
        access_changed()


def _positions(user_id: int | None) -> tuple[int, int]:
    """(the WAL position a replica must have replayed for ``user_id``, the primary's position)."""
    keys = [ACCESS_KEY] if user_id is None else [ACCESS_KEY, f"user:{user_id}"]
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            """SELECT COALESCE(max(lsn), 0), pg_current_wal_lsn() - '0/0'::pg_lsn
               FROM agents_readposition WHERE key = ANY(%s)""",
            [keys],
        )
        needed, primary_at = cursor.fetchone()
    return int(needed), int(primary_at)


def _keep_position(key: str) -> None:
    # The insert position is past the commit that was just made: a replica that has replayed it
    # has replayed that commit.
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            """INSERT INTO agents_readposition (key, lsn) VALUES (%s, pg_current_wal_insert_lsn() - '0/0'::pg_lsn)
               ON CONFLICT (key) DO UPDATE SET lsn = GREATEST(agents_readposition.lsn, excluded.lsn)""",
            [key],
        )


def _replica_failed(alias: str, exc: BaseException) -> bool:
    """Whether ``exc`` is the replica's failing, not the query's: the replica is gone (marked
    down, its connection dropped) or cancelled the query for a conflict with the WAL it replays
    (a row the primary has vacuumed away). Either way the primary answers instead."""
    if _recovery_conflict(exc):
        return True
    connection = connections[alias]
    if not is_unreachable(exc) and connection.connection is not None and connection.is_usable():
        return False
    outage_of(alias).failed(exc)
    connection.close()
    return True


def _recovery_conflict(exc: BaseException) -> bool:
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) == "40001" and "conflict with recovery" in str(cause)

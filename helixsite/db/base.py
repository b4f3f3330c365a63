"""PostgreSQL backend that brings up the embedded server on first connection.

The connection parameters differ from Django's own backend: the host is the embedded
server's socket directory, known once the server runs. Anything that never connects
(``embedded_db status``, ``check``) never starts the server.

With the pool, a database out of reach is answered within seconds rather than after the pool's
timeout: a request waits for a pooled connection only a moment (``FIRST_WAIT_SECONDS``) before a
direct connection tells a busy pool (then it waits on, up to the pool's timeout) from one that
has none to give. That is also the first request of each process once the database is down:
the pool would wait its whole timeout for a connection the server cannot give, whether its idle
ones are those the server ended or it never had any. Once a direct connection has failed,
requests fail fast, and one tried at growing intervals says when the database is back. Then the
pool, whose own retries have been spaced out meanwhile, is replaced by a fresh one, so service
resumes without a restart.
"""

from __future__ import annotations

import datetime
import functools
import threading
from pathlib import Path
from typing import Any, cast

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.backends.postgresql import base
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.backends.utils import CursorWrapper
from django.utils.asyncio import async_unsafe
from psycopg import IsolationLevel
from psycopg.abc import AdaptContext
from psycopg.adapt import AdaptersMap, Loader
from psycopg.pq import Format
from psycopg.types.datetime import TimestamptzLoader
from psycopg_pool import PoolTimeout

from helixsite import embedded_db
from helixsite.db.outage import Outage, connect_directly

PROBE_TIMEOUT_SECONDS = 3
# A pool that works hands a connection over in milliseconds; one that waits longer is either
# busy or has none to give, and a direct connection tells which.
FIRST_WAIT_SECONDS = 2.0
POOL_OUTAGE = Outage(what="web")  # the primary's; each read replica has one of its own
_REPLICA_OUTAGES: dict[str, Outage] = {}
_renewing = threading.Lock()
NEVER_BY_COUNT = 2**62


def outage_of(alias: str) -> Outage:
    """This process's view of whether the database behind ``alias`` is out of reach."""
    if alias == DEFAULT_DB_ALIAS:
        return POOL_OUTAGE
    with _renewing:
        return _REPLICA_OUTAGES.setdefault(alias, Outage(what="web", subject=f"the read replica {alias}"))


def _c_timestamptz_loader() -> type | None:
    try:
        from psycopg_binary import _psycopg
    except ImportError:
        return None
    return getattr(_psycopg, "TimestamptzLoader", None)


_PARSED_IN_C = _c_timestamptz_loader()


class _TzLoader(Loader):
    """A timestamptz as Django's own loader reads it (``psycopg_any.BaseTzLoader``: the value in
    the session's time zone, then given the connection's), parsed by psycopg's C loader instead
    of its Python one, which Django's subclasses: 0.85 µs a value against 2.4 (a search reads
    about 400). The class's ``timezone`` is what Django's ``create_cursor`` compares with."""

    timezone: datetime.tzinfo | None = None

    def __init__(self, oid: int, context: AdaptContext | None = None) -> None:
        super().__init__(oid, context)
        self._parse = (_PARSED_IN_C or TimestamptzLoader)(oid, context).load

    def load(self, data: Any) -> datetime.datetime:
        return self._parse(data).replace(tzinfo=self.timezone)


@functools.lru_cache
def _adapters(template: AdaptersMap, timezone: datetime.tzinfo) -> AdaptersMap:
    """Django's adapters for a connection (``get_adapters_template``), timestamps read by ``_TzLoader``."""
    loader = type("TzLoader", (_TzLoader,), {"timezone": timezone})
    adapters = AdaptersMap(template)
    adapters.register_loader("timestamptz", loader)
    return adapters


class PreparingCursor(psycopg.Cursor):
    """Binds parameters on the server and has every statement it runs prepared there, once per
    connection (psycopg keeps the names, up to ``prepare_max`` a connection)."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        return super().execute(query, params, prepare=True, binary=binary)


class DatabaseOperations(PostgresOperations):
    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        """A prepared statement's SQL, with its values, for the queries Django logs in debug."""
        if not isinstance(cursor, PreparingCursor):
            return super().last_executed_query(cursor, sql, params)
        try:
            return self.compose_sql(sql, params)
        except psycopg.errors.DataError:  # values SQL cannot spell: the statement as written
            return sql


def _pool_made(alias: str) -> bool:
    """Whether Django has made ``alias``'s pool (it keeps them on the class, by alias)."""
    return alias in base.DatabaseWrapper._connection_pools  # type: ignore[attr-defined]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    _from_pool = False  # connecting, with a connection from the pool (``connect``)

    @async_unsafe
    def prepared_cursor(self) -> CursorWrapper:
        """A cursor for statements run on every call: a search's, a call's budget spend
        (``HELIX_DB_PREPARED``).

        PostgreSQL plans each of them anew every time (about 2 ms of an 11 ms search, with parsing
        them: docs/benchmarks.md), though the best plan is the same for any owner, term or key:
        rows read by key, one owner's few rows gathered. Prepared, a statement is planned for its
        first few calls, then a generic plan is kept if it costs no more than theirs did. Only
        for statements whose best plan does not depend on the values: not the HNSW walk, not a
        full-text match across owners, not the kind holders (kept generic, their statement took
        16 ms a search against 0.9), and not over a scope a category, filter or time window
        narrows (``memory.search.scope.Scope.steady``); and whose result columns keep their types
        when a column changes (no vector in what they return). Behind a pooler that cannot keep prepared
        statements, the setting turns it off: a plain cursor."""
        if not settings.HELIX_DB_PREPARED:
            return self.cursor()
        # As Django's own ``cursor()``, with the cursor's class ours.
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            cursor = PreparingCursor(self.connection)
            if self.timezone != self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, Format.TEXT).timezone:
                register_tzloader(self.timezone, cursor)
            self.validate_thread_sharing()
            wrapped = cast(Any, cursor)  # Django's wrappers take any DB-API cursor
            return self.make_debug_cursor(wrapped) if self.queries_logged else self.make_cursor(wrapped)

    @async_unsafe
    def connect(self) -> None:
        # Django reads the connection parameters before it takes a connection, which from a pool
        # needs none (the pool keeps those it was made with): reading where the embedded server
        # listens (its pid file, its process) cost 0.16 ms a request. A probe reads them (``_probe``).
        self._from_pool = _pool_made(self.alias)
        try:
            super().connect()
        finally:
            self._from_pool = False

    def get_connection_params(self) -> dict[str, Any]:
        # A pool made anew (after an outage) is made with them.
        return {} if self._from_pool and _pool_made(self.alias) else self._connection_params()

    def _connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        data_dir = self.settings_dict.get("EMBEDDED_DATA_DIR")
        if data_dir:
            embedded = embedded_db.ensure_running(Path(data_dir), self.settings_dict["EMBEDDED_APP_DATABASE"])
            params.update(embedded)
        if params.get("context") is not None and self.timezone is not None:
            params["context"] = _adapters(params["context"], self.timezone)
        if settings.HELIX_DB_PREPARED:
            # Django's None turns psycopg's preparing off altogether. Only ``prepared_cursor``'s
            # statements ask for it; no statement reaches a threshold this high on its own.
            params["prepare_threshold"] = NEVER_BY_COUNT
        return params

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if self.pool is None:
            return super().get_new_connection(conn_params)
        if outage_of(self.alias).active:
            self._probe()
        first_wait = min(FIRST_WAIT_SECONDS, self.pool.timeout)
        try:
            return self._pooled_connection(timeout=first_wait)
        except PoolTimeout:
            self._probe()  # every connection busy, or none to be had: a direct one tells which
            if self.pool.timeout <= first_wait:
                raise
        return self._pooled_connection(timeout=self.pool.timeout - first_wait)  # busy: wait on

    def _pooled_connection(self, *, timeout: float) -> Any:
        """What Django's ``get_new_connection`` does with a pool, waiting at most ``timeout``."""
        level = self.settings_dict["OPTIONS"].get("isolation_level")
        self.isolation_level = IsolationLevel.READ_COMMITTED if level is None else IsolationLevel(level)
        self.pool.open()
        connection = self.pool.getconn(timeout=timeout)
        if level is not None:
            connection.isolation_level = self.isolation_level
        return connection

    def _probe(self) -> None:
        """Raise at once if the database is known to be out of reach or a direct connection
        fails; if one succeeds after an outage, start over with a fresh pool."""
        outage = outage_of(self.alias)
        if not outage.due():
            wait = outage.seconds_until_due()
            raise psycopg.OperationalError(
                f"{outage.subject} is unreachable ({outage.last_reason}); next try in {wait:.0f}s"
            )
        try:
            connect_directly(self._connection_params(), timeout=PROBE_TIMEOUT_SECONDS).close()
        except psycopg.Error as exc:
            outage.failed(exc)
            raise
        with _renewing:
            if outage.active:
                self.close_pool()
                outage.recovered()

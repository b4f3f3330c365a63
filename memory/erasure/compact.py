"""Compaction after an erasure: the erased rows' bytes out of the database's files.

PostgreSQL deletes or updates a row by marking its old version dead, not by overwriting it: the
erased words stay in the table's heap file, its TOAST table and its indexes, and in the WAL that
recorded the change, until a later write happens to reuse that space. ``erasure_compact`` rewrites
each table an erasure touches (``erasure_table_names``) with ``VACUUM (FULL, ANALYZE)``: a new file
holding the live rows only, every index built again, the old files removed. ANALYZE replaces the
tables' column statistics, which sample their values (an erased memory's text among the most common
values or as a histogram bound, an owner's id); ANALYZE of a table left with no rows has nothing to
sample and keeps the statistics it had, so those are cleared. The statistics catalogue is rewritten
last, so the rows replaced or cleared go too. Then a ``CHECKPOINT``,
after which the server may recycle (rename and overwrite) the WAL segments that recorded the old
rows. WAL already archived or streamed, a replica's own files until it replays the rewrite, and
backups taken before keep them still.

VACUUM FULL holds an ACCESS EXCLUSIVE lock on a table for as long as it rewrites it: every read and
write of that table waits meanwhile (measured in docs/reliability.md). One table at a time, so only
the one being rewritten waits. A table it cannot lock within ``LOCK_WAIT_SECONDS`` (a long query or
transaction holds it) is left as it was and said so, rather than made to queue every caller behind
that lock. So is one this database user may not vacuum (only a table's owner or a superuser may):
PostgreSQL skips it with a warning, seen here as the table keeping its file.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, OperationalError, connection

from helixsite.errors import InvalidInput
from memory.erasure.services import erasure_table_names

LOCK_WAIT_SECONDS = 10
# How long to wait for sessions older than the rewrites to end: they block no one meanwhile (an
# autovacuum's analyze, a worker's task), so longer than a table lock is waited for.
SESSION_WAIT_SECONDS = 60
SNAPSHOT_POLL_SECONDS = 0.05
# As the importer's HNSW build: the memories' vector index, built again, fits in memory.
MAINTENANCE_MEMORY = "512MB"
STATISTICS = "pg_statistic"
_LOCK_NOT_AVAILABLE = "55P03"
_INSUFFICIENT_PRIVILEGE = "42501"


@dataclass(frozen=True)
class TableCompacted:
    """One table: how long its rewrite took, its size (with indexes and TOAST) before and after,
    or why it was left as it was."""

    table: str
    seconds: float
    bytes_before: int
    bytes_after: int
    skipped: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "seconds": round(self.seconds, 3),
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class Compaction:
    tables: list[TableCompacted]
    checkpoint: str  # "done", or why it was not
    seconds: float
    # Sessions older than the rewrites that were still open when the wait for them ended: what an
    # erasure deleted may have been copied into the new files while they lasted.
    held: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every table rewritten with no older session open (a checkpoint this database user may
        not ask for is only noted)."""
        return not any(table.skipped for table in self.tables) and not self.held

    def as_dict(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "tables": [table.as_dict() for table in self.tables],
            "checkpoint": self.checkpoint,
            "held": self.held,
        }


def compaction_tables(names: list[str] | None) -> list[str]:
    """The tables to compact: every one an erasure touches, then the statistics; or those of
    them ``names`` gives."""
    touched = [*erasure_table_names(), STATISTICS]
    if not names:
        return touched
    unknown = sorted(set(names) - set(touched))
    if unknown:
        raise InvalidInput(
            f"Not a table an erasure touches: {', '.join(unknown)}. Those are: {', '.join(touched)}.", field="tables"
        )
    return [name for name in touched if name in names]


def erasure_compact(*, tables: list[str] | None = None, session_wait: float | None = None) -> Compaction:
    """Rewrite ``tables`` (by default every table an erasure touches) one at a time, then ask
    for a checkpoint. Outside any transaction: VACUUM cannot run inside one. ``session_wait``:
    seconds to wait for older sessions to end (default SESSION_WAIT_SECONDS)."""
    started = time.perf_counter()
    names = compaction_tables(tables)
    wait = SESSION_WAIT_SECONDS if session_wait is None else session_wait
    held: list[str] = []
    with connection.cursor() as cursor:
        held += _older_snapshots_ended(cursor, wait)  # one from before the erasure would keep its rows
    done = [_table_compact(name, held, wait) for name in names]
    return Compaction(done, _checkpoint(), time.perf_counter() - started, list(dict.fromkeys(held)))


def _table_compact(table: str, held: list[str], wait: float) -> TableCompacted:
    with connection.cursor() as cursor:
        if table == STATISTICS:
            held += _older_snapshots_ended(cursor, wait)
        before, file = _size(cursor, table), _file(cursor, table)
        cursor.execute("SELECT set_config('lock_timeout', %s, false)", [f"{LOCK_WAIT_SECONDS}s"])
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [MAINTENANCE_MEMORY])
        started = time.perf_counter()
        try:
            cursor.execute(f"VACUUM (FULL, ANALYZE) {connection.ops.quote_name(table)}")
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) != _LOCK_NOT_AVAILABLE:
                raise
            skipped = f"not locked within {LOCK_WAIT_SECONDS} s: a query or transaction held it; run again"
            return TableCompacted(table, time.perf_counter() - started, before, before, skipped)
        finally:
            cursor.execute("RESET lock_timeout")
            cursor.execute("RESET maintenance_work_mem")
        if _file(cursor, table) == file:
            skipped = "not rewritten: this database user may not vacuum it"
            return TableCompacted(table, time.perf_counter() - started, before, before, skipped)
        _statistics_of_an_empty_table_cleared(cursor, table)
        return TableCompacted(table, time.perf_counter() - started, before, _size(cursor, table))


def _statistics_of_an_empty_table_cleared(cursor: Any, table: str) -> None:
    """ANALYZE that samples no row (``reltuples`` 0) leaves the statistics as they were: those of
    a table the erasure emptied (the search statistics' deltas, which it folds away) were sampled
    while the erased rows were there. Cleared, with its indexes' (an expression's), as though the
    table were new: the next ANALYZE after rows arrive writes them again."""
    if table == STATISTICS:
        return
    cursor.execute(
        """SELECT pg_clear_attribute_stats(stats.schemaname, stats.tablename, stats.attname, stats.inherited)
           FROM pg_stats stats
           JOIN pg_namespace namespace ON namespace.nspname = stats.schemaname
           JOIN pg_class relation ON relation.relnamespace = namespace.oid AND relation.relname = stats.tablename
           WHERE (SELECT reltuples FROM pg_class WHERE oid = %(t)s::regclass) = 0
               AND (relation.oid = %(t)s::regclass
                    OR relation.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = %(t)s::regclass))""",
        {"t": table},
    )


def _older_snapshots_ended(cursor: Any, wait: float) -> list[str]:
    """Wait (at most ``wait`` seconds) until nothing that keeps a row deleted before now is left:
    a rewrite keeps a row deleted after the oldest transaction still running began, or after the
    oldest snapshot of this database was taken (it may still be read). So, before the first
    rewrite, a session of this database holding a snapshot, or a transaction with a write, from
    before the erasure (a worker's task, a long read) would have the erased rows copied into the
    new files; so would a write still open in any other database of the server, whose transaction
    every new snapshot here (the rewrite's own among them) counts as running; so would a standby's
    feedback (hot_standby_feedback, through its WAL sender or its replication slot) or a prepared
    transaction. Before the statistics catalogue's rewrite, the same for what is older than the
    rewrites that replaced the erased rows' statistics (an autovacuum's analyze). After the wait
    the rewrite runs in any case; what is still open then, each as "pid N (database, application,
    state, since HH:MM:SS)", "replication slot S" or "prepared transaction G"."""
    cursor.execute("SELECT xid(pg_current_xact_id())")
    now = cursor.fetchone()[0]
    deadline = time.monotonic() + wait
    while True:
        cursor.execute(
            # A write still open anywhere (backend_xid); a snapshot (backend_xmin) here, or of a
            # process of no database (a WAL sender passing a standby's feedback on): from before now.
            """SELECT format('pid %%s (%%s, %%s, %%s, since %%s)', pid, coalesce(datname, 'no database'),
                             coalesce(nullif(application_name, ''), backend_type), state,
                             to_char(xact_start, 'HH24:MI:SS'))
               FROM pg_stat_activity
               WHERE pid <> pg_backend_pid()
                   AND (age(backend_xid) >= age(%(now)s::xid)
                        OR ((datname = current_database() OR datname IS NULL)
                            AND age(backend_xmin) >= age(%(now)s::xid)))
               UNION ALL
               SELECT format('replication slot %%s', slot_name) FROM pg_replication_slots
               WHERE age(xmin) >= age(%(now)s::xid)
               UNION ALL
               SELECT format('prepared transaction %%s', gid) FROM pg_prepared_xacts
               WHERE age(transaction) >= age(%(now)s::xid)
               ORDER BY 1""",
            {"now": now},
        )
        older = [row[0] for row in cursor.fetchall()]
        if not older or time.monotonic() >= deadline:
            return older
        time.sleep(SNAPSHOT_POLL_SECONDS)


def _size(cursor: Any, table: str) -> int:
    cursor.execute("SELECT pg_total_relation_size(%s::regclass)", [table])
    return int(cursor.fetchone()[0])


def _file(cursor: Any, table: str) -> str:
    """Where the table's rows are: a rewrite always puts them in a new file."""
    cursor.execute("SELECT pg_relation_filepath(%s::regclass)", [table])
    return str(cursor.fetchone()[0])


def _checkpoint() -> str:
    """A checkpoint, or why there was none: it needs a superuser or the pg_checkpoint role."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("CHECKPOINT")
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) != _INSUFFICIENT_PRIVILEGE:
            raise
        return "not allowed for this database user (it needs the pg_checkpoint role); the server's next one will do"
    return "done"

"""The HNSW indexes of the stored vectors: their parameters, how one is built while writes go on,
and an index of its own for each of the largest owners' memories.

pgvector's iterative scan answers a search of one owner by walking the graph of the whole table
and dropping the rows of everyone else: for an owner of 10,000 among 200,000 memories of owners
alike, about 3,000 rows are walked and dropped for the 50 kept (the vector seeds p50 14 ms, p95
32). An index of the owner's rows alone (partial, ``WHERE user_id = …``) is walked for that owner
only (p50 0.6, p95 1.0 ms: docs/benchmarks.md), and PostgreSQL chooses it by itself for any
statement that names the owner: the search's statements are unchanged. Document chunks, which
have owners too, get theirs the same way.

Each write of such an owner's memory updates both indexes, so only the owners the exact scan
does not serve (past ``HELIX_SEARCH_EXACT_ROWS`` rows) and whose rows are less than a quarter of
the table (at most four rows walked for each kept) have one: the largest first, at most
``HELIX_SEARCH_OWNER_INDEXES`` a table. The worker builds and drops them concurrently every few minutes
(``owner_indexes_refresh``); an owner keeps theirs until they fall below half that size, so an
owner near the line does not see it built and dropped in turn. A build that was interrupted
leaves an invalid index, which the planner never uses; it is built again. An owner erased
everywhere loses theirs as the erasure commits (``owner_indexes_drop``): its definition names them.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import sql

from helixsite.db.replicas import reader

# The HNSW parameters of the models' HnswIndex (memory.models, memory.documents.models).
HNSW = "USING hnsw ({column} vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
# An owner holding at least this share of the table is served by the whole table's index.
LARGEST_SHARE = 1 / 4
# Builds start while the refresh has run less than this long; the rest wait for the next run
# (the task's own limit, HELIX_TASK_TIMEOUT, is 300 s by default).
BUILD_SECONDS = 120
_LOCK = "hashtext('memory_owner_indexes')"


def deferred_checks_fire() -> None:
    """Called inside a transaction that wrote rows, the foreign keys' deferred checks still
    pending on a table would refuse ALTER TABLE or CREATE INDEX on it: run them now."""
    if connection.in_atomic_block:
        connection.check_constraints()


def index_create(name: str, definition: str) -> None:
    """``CREATE INDEX``, concurrently when not inside a transaction (writes go on meanwhile). A
    concurrent build that was interrupted leaves an invalid index behind: it is built again."""
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    deferred_checks_fire()
    with connection.cursor() as cursor:
        cursor.execute("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(%s)", [name])
        row = cursor.fetchone()
        if row is not None and row[0]:
            return
        if row is not None:
            cursor.execute(f"DROP INDEX {concurrently} IF EXISTS {name}")
        cursor.execute("SELECT set_config('maintenance_work_mem', '512MB', false)")
        try:
            cursor.execute(f"CREATE INDEX {concurrently} IF NOT EXISTS {name} {definition}")
        finally:
            cursor.execute("RESET maintenance_work_mem")


@dataclass(frozen=True)
class OwnedVectors:
    """A table of vectors with an owner (``user_id``), and the prefix of its owners' indexes."""

    table: str
    prefix: str

    def index_name(self, user_id: str) -> str:
        """The name of ``user_id``'s index: a digest, so any owner's name makes a valid one."""
        return _index_name(self.prefix, user_id)


@lru_cache(maxsize=4096)  # asked a few times a search, for the same few owners
def _index_name(prefix: str, user_id: str) -> str:
    return prefix + hashlib.sha256(user_id.encode()).hexdigest()[:24]


MEMORIES = OwnedVectors("memory_memory", "memory_owner_hnsw_")
CHUNKS = OwnedVectors("documents_chunk", "chunk_owner_hnsw_")


OWNED = {owned.table: owned for owned in (MEMORIES, CHUNKS)}
# How long a process trusts what it last read of which owners have an index.
KNOWN_SECONDS = 60
_known: dict[str, tuple[float, frozenset[str]]] = {}


def owner_indexed(table: str, user_id: str) -> bool:
    """Whether ``user_id`` has an index of their own on ``table``, as of at most ``KNOWN_SECONDS``
    ago: an owner known to hold many rows, whose search goes to the indexes at once instead of
    first gathering the owner's rows to find how many there are."""
    owned = OWNED.get(table)
    if owned is None:
        return False
    now = time.monotonic()
    held = _known.get(table)
    if held is None or now - held[0] > KNOWN_SECONDS:
        valid = frozenset(name for name, built in owner_indexes_present(owned, db=reader()).items() if built)
        held = _known[table] = (now, valid)
    return owned.index_name(user_id) in held[1]


def owner_indexes_present(owned: OwnedVectors, *, db: BaseDatabaseWrapper = connection) -> dict[str, bool]:
    """The owners' indexes on the table, by name: whether each is valid (built to its end)."""
    with db.cursor() as cursor:
        cursor.execute(
            """SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
               WHERE i.indrelid = to_regclass(%s) AND starts_with(c.relname, %s)""",
            [owned.table, owned.prefix],
        )
        return dict(cursor.fetchall())


def owner_indexes_wanted(owned: OwnedVectors, present: set[str]) -> dict[str, str]:
    """The owners who should have an index (by index name): past ``HELIX_SEARCH_EXACT_ROWS``
    rows, or past half that for one who has an index already, less than a quarter of the table,
    the largest ``HELIX_SEARCH_OWNER_INDEXES`` of them."""
    cap, exact = settings.HELIX_SEARCH_OWNER_INDEXES, settings.HELIX_SEARCH_EXACT_ROWS
    if cap <= 0:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {owned.table}")
        (total,) = cursor.fetchone() or (0,)
        cursor.execute(
            f"SELECT user_id, count(*) FROM {owned.table} GROUP BY user_id HAVING count(*) > %s",
            [exact // 2],
        )
        sizes = cursor.fetchall()
    eligible = [
        (rows, user_id)
        for user_id, rows in sizes
        if rows < total * LARGEST_SHARE and (rows > exact or owned.index_name(user_id) in present)
    ]
    eligible.sort(key=lambda owner: (-owner[0], owner[1]))
    return {owned.index_name(user_id): user_id for _, user_id in eligible[:cap]}


def owner_indexes_refresh() -> dict[str, int]:
    """Build the indexes the largest owners should have, of memories and of document chunks,
    and drop the others; one refresh at a time (another running meanwhile: this one does
    nothing). What it did, counted."""
    done = {"built": 0, "dropped": 0, "kept": 0, "deferred": 0}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_try_advisory_lock({_LOCK})")
        (locked,) = cursor.fetchone() or (False,)
    if not locked:
        return done
    started = time.monotonic()
    try:
        for owned in (MEMORIES, CHUNKS):
            _refresh(owned, done, started)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT pg_advisory_unlock({_LOCK})")
        _known.clear()  # this process knows at once; the others within KNOWN_SECONDS
    return done


def _refresh(owned: OwnedVectors, done: dict[str, int], started: float) -> None:
    present = owner_indexes_present(owned)
    wanted = owner_indexes_wanted(owned, set(present))
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    for name in sorted(set(present) - set(wanted)):
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {concurrently} IF EXISTS {name}")
        done["dropped"] += 1
    for name, user_id in wanted.items():
        if present.get(name):
            done["kept"] += 1
        elif time.monotonic() - started > BUILD_SECONDS:
            done["deferred"] += 1
        else:
            connection.ensure_connection()
            owner = sql.Literal(user_id).as_string(connection.connection)
            index_create(name, f"ON {owned.table} {HNSW.format(column='embedding')} WHERE user_id = {owner}")
            done["built"] += 1


def owner_indexes_drop(user_id: str) -> int:
    """Drop ``user_id``'s indexes at once (an owner erased everywhere: an index's definition
    names its owner); how many there were."""
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY"
    dropped = 0
    for owned in OWNED.values():
        name = owned.index_name(user_id)
        if name in owner_indexes_present(owned):
            with connection.cursor() as cursor:
                cursor.execute(f"DROP INDEX {concurrently} IF EXISTS {name}")
            dropped += 1
    _known.clear()
    return dropped

"""The run-time schema of a re-embed, table by table: the next column beside ``embedding``, the
trigger that keeps it honest, its HNSW index, the swap, and what is dropped on an abort.

Every statement that locks a table gives up after ``HELIX_REEMBED_LOCK_TIMEOUT_SECONDS``: a
lock request waiting behind a long transaction makes every later write to the table wait too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.backends.utils import CursorWrapper

from helixsite.errors import Conflict
from memory.vector_indexes import HNSW, deferred_checks_fire, index_create

NEXT = "embedding_next"
STALE_FUNCTION = "reembed_next_stale"
# lock_not_available (lock_timeout passed), deadlock_detected (a writer locked the tables the
# other way round, and PostgreSQL chose this transaction to give way).
LOCK_REFUSED = ("55P03", "40P01")


@dataclass(frozen=True)
class VectorTable:
    """A table with an ``embedding`` column, and how its rows are embedded."""

    name: str
    key_type: str  # the SQL type of its primary key ``id``
    text: str  # SQL for the text a row is embedded as, over the row ``t`` (and ``joined``)
    watched: tuple[str, ...]  # columns whose change makes the next vector stale
    index: str | None = None  # the HNSW index on ``embedding``
    required: bool = True  # ``embedding`` is NOT NULL
    joined: str = ""  # a FROM item ``text`` reads, and its join condition
    joined_on: str = ""

    @property
    def next_index(self) -> str:
        return f"{self.name}_next_hnsw"

    @property
    def missing_index(self) -> str:
        return f"{self.name}_next_missing"

    @property
    def trigger(self) -> str:
        return f"{self.name}_next_stale"

    @property
    def present_check(self) -> str:
        return f"{self.name}_embedding_present"


TABLES = (
    VectorTable("memory_memory", "uuid", "t.content", ("content",), index="memory_embedding_hnsw"),
    VectorTable("memory_entity", "bigint", "t.name", ("name",), required=False),
    # As memory.documents.services embeds a chunk: where it sits (title › headings), then its text.
    VectorTable(
        "documents_chunk",
        "uuid",
        "concat_ws(' › ', NULLIF(d.title, ''), NULLIF(t.heading, '')) || E'\\n\\n' || t.text",
        ("heading", "text"),
        index="chunk_embedding_hnsw",
        joined="documents_document d",
        joined_on="d.id = t.document_id",
    ),
)


def tables_present() -> list[VectorTable]:
    """The vector tables this installation has (an app's tables exist once it is migrated)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t FROM unnest(%s::text[]) t WHERE to_regclass(t) IS NOT NULL", [[t.name for t in TABLES]]
        )
        present = {name for (name,) in cursor.fetchall()}
    return [table for table in TABLES if table.name in present]


@contextmanager
def ddl() -> Iterator[CursorWrapper]:
    """A transaction whose lock waits give up in time, refused in one clear sentence."""
    deferred_checks_fire()
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [_lock_timeout()])
            yield cursor
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) not in LOCK_REFUSED:
            raise
        raise Conflict(
            f"The tables stayed locked by other transactions for {settings.HELIX_REEMBED_LOCK_TIMEOUT_SECONDS:g} s "
            "(a long export, backup or import?); nothing was changed. Run the command again.",
            code="tables_busy",
        ) from None


def _lock_timeout() -> str:
    return f"{int(settings.HELIX_REEMBED_LOCK_TIMEOUT_SECONDS * 1000)}ms"


def next_dimension(table: VectorTable) -> int | None:
    """The dimension of the table's next column, or None when it has none."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attname = %s AND NOT attisdropped",
            [table.name, NEXT],
        )
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def prepare(tables: Sequence[VectorTable], dimension: int) -> None:
    """The next columns, their stale trigger and the index that finds rows still to embed."""
    with ddl() as cursor:
        cursor.execute(
            f"""CREATE OR REPLACE FUNCTION {STALE_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN NEW.{NEXT} := NULL; RETURN NEW; END $$"""
        )
        for table in tables:
            changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in table.watched)
            cursor.execute(f"ALTER TABLE {table.name} ADD COLUMN IF NOT EXISTS {NEXT} vector({dimension})")
            cursor.execute(
                f"""CREATE OR REPLACE TRIGGER {table.trigger} BEFORE UPDATE OF {", ".join(table.watched)}
                    ON {table.name} FOR EACH ROW WHEN ({changed}) EXECUTE FUNCTION {STALE_FUNCTION}()"""
            )
    for table in tables:
        index_create(table.missing_index, f"ON {table.name} (id) WHERE {NEXT} IS NULL")


def next_index_build(table: VectorTable) -> None:
    if table.index:
        index_create(table.next_index, f"ON {table.name} {HNSW.format(column=NEXT)}")


def counts(table: VectorTable) -> tuple[int, int]:
    """Rows in the table, and rows whose next vector is still missing."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*), count(*) FILTER (WHERE {NEXT} IS NULL) FROM {table.name}")
        total, missing = cursor.fetchone() or (0, 0)
    return int(total), int(missing)


def any_missing(table: VectorTable) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table.name} WHERE {NEXT} IS NULL)")
        row = cursor.fetchone()
    return bool(row and row[0])


def missing(table: VectorTable, *, after: Any, limit: int) -> list[tuple[Any, str]]:
    """The next rows (by id, after ``after``) still to embed, with the text to embed."""
    where = f"t.{NEXT} IS NULL" + (" AND t.id > %(after)s" if after is not None else "")
    if table.joined:
        where += f" AND {table.joined_on}"
    joined = f", {table.joined}" if table.joined else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.id, {table.text} FROM {table.name} t{joined} WHERE {where} ORDER BY t.id LIMIT %(limit)s",
            {"after": after, "limit": limit},
        )
        return [(key, text) for key, text in cursor.fetchall()]


def store(table: VectorTable, rows: Sequence[tuple[Any, str]], vectors: Sequence[str]) -> int:
    """Write next vectors, each only if its row still reads as the text that was embedded (a
    row changed meanwhile stays missing and is embedded again). Returns the rows written."""
    joined = f", {table.joined}" if table.joined else ""
    joined_on = f" AND {table.joined_on}" if table.joined else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""UPDATE {table.name} t SET {NEXT} = v.vector::vector
                FROM unnest(%s::{table.key_type}[], %s::text[], %s::text[]) AS v(id, text, vector){joined}
                WHERE t.id = v.id AND {table.text} = v.text{joined_on}""",
            [[key for key, _ in rows], [text for _, text in rows], list(vectors)],
        )
        return cursor.rowcount


def lock(tables: Sequence[VectorTable], mode: str) -> None:
    """Inside ``ddl()``: lock the tables in TABLES' order, the order writers meet them in."""
    with connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {', '.join(t.name for t in tables)} IN {mode} MODE")


def swap(table: VectorTable) -> None:
    """Inside the switch: the next column becomes ``embedding``, its index takes the old one's
    name. NOT NULL is promised by a check not yet validated (no scan under the lock)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TRIGGER IF EXISTS {table.trigger} ON {table.name}")
        cursor.execute(f"DROP INDEX IF EXISTS {table.missing_index}")
        cursor.execute(f"ALTER TABLE {table.name} DROP COLUMN embedding")
        cursor.execute(f"ALTER TABLE {table.name} RENAME COLUMN {NEXT} TO embedding")
        if table.index:
            cursor.execute(f"ALTER INDEX {table.next_index} RENAME TO {table.index}")
        if table.required:
            cursor.execute(
                f"ALTER TABLE {table.name} ADD CONSTRAINT {table.present_check} CHECK (embedding IS NOT NULL) NOT VALID"
            )


def stale_function_drop() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP FUNCTION IF EXISTS {STALE_FUNCTION}()")


def not_null_finish(tables: Sequence[VectorTable]) -> None:
    """After the switch: validate the check (reads the table, writes go on), then SET NOT NULL,
    which a valid check spares its scan, and drop the check. Run again after an interruption."""
    for table in tables:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass(%s) AND conname = %s",
                [table.name, table.present_check],
            )
            if cursor.fetchone() is None:
                continue
        with ddl() as cursor:
            cursor.execute(f"ALTER TABLE {table.name} VALIDATE CONSTRAINT {table.present_check}")
        with ddl() as cursor:
            cursor.execute(f"ALTER TABLE {table.name} ALTER COLUMN embedding SET NOT NULL")
            cursor.execute(f"ALTER TABLE {table.name} DROP CONSTRAINT {table.present_check}")


def drop(tables: Sequence[VectorTable]) -> None:
    """Everything a run added, for an abort: the next columns (their indexes go with them)."""
    with ddl() as cursor:
        for table in tables:
            cursor.execute(f"DROP TRIGGER IF EXISTS {table.trigger} ON {table.name}")
            cursor.execute(f"ALTER TABLE {table.name} DROP COLUMN IF EXISTS {NEXT}")
        cursor.execute(f"DROP FUNCTION IF EXISTS {STALE_FUNCTION}()")

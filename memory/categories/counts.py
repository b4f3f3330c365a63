"""How many memories each category holds, kept as memories and filings change instead of counted
at each ``list_categories``.

What counts: a memory not forgotten and not superseded (an expired one counts until the lifecycle
sweep removes it, as in BM25's statistics), once under every path its filings name and their
ancestors: filed under ``work/infrastructure`` and ``work/hiring``, it counts once under ``work``.
Counts are kept per *visibility set* (a memory's ``visible_in``, the exact array of workspaces that
see it) and owner, and once more per set for every owner (``user_id`` null). A memory is in exactly
one set, so what a reader may see is the sum over the sets that share a workspace with it: exact,
and never counted over another tenant's memories.

Triggers on the filings and the memories append every change as a delta row
(``categories_categorycountdelta``), never updated, so writers never wait on one another's
counters; the fold (the worker, every minute) moves the deltas into the totals in one transaction.
A reader sums totals and pending deltas in one statement: it sees exactly the writes committed
before it. The filings' foreign key is checked at commit, so a filing may be written before or
after its memory: each side counts what the other already holds, and a pair is counted once.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from helixsite.db.replicas import reader
from memory.search.corpus import MEMORIES, deltas_fold

TOTALS = "categories_categorycount"
DELTAS = "categories_categorycountdelta"
_COLUMNS = "visibility, user_id, path, memories, newest"
_FOLD_LOCK = "hashtext('categories_counts_fold')"
# A memory BM25 counts (not forgotten; expired, until the sweep), and current.
COUNTED = f"{MEMORIES.counted} AND r.valid_to IS NULL"


def _paths(filings: str, where: str = "TRUE") -> str:
    """SELECT every (memory, path) ``filings`` (a FROM item named ``f``) name, ancestors included, once."""
    return f"""SELECT DISTINCT f.memory_id, p.path FROM {filings}
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE {where}"""


def _contribution(pairs: str, memories: str, sign: int, *, extra: str = "") -> str:
    """SELECT the counts of the (memory, path) ``pairs`` (named ``e``) over ``memories`` (named
    ``r``), counted ones only, times ``sign``: per set and owner, and per set for every owner."""
    newest = "max(r.updated_at)" if sign > 0 else "NULL::timestamptz"
    return f"""
        SELECT r.visible_in, o.user_id, e.path, {sign} * count(*), {newest}
        FROM ({pairs}) e JOIN {memories} ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE {COUNTED} {extra}
        GROUP BY r.visible_in, o.user_id, e.path"""


def _uncovered(but: str = "") -> str:
    """SQL over a pair ``e``: no other filing of its memory (``but`` excludes the filings ``g``
    being counted) names its path too."""
    return f"""AND NOT EXISTS (
            SELECT 1 FROM categories_filing g JOIN categories_category k ON k.id = g.category_id
            WHERE g.memory_id = e.memory_id AND k.lineage @> ARRAY[e.path]::varchar[] {but})"""


def counted_sql() -> str:
    """SELECT every count from the rows themselves: the definition the triggers keep, and the recount."""
    return _contribution(_paths("categories_filing f"), "memory_memory r", 1)


def install_sql() -> list[str]:
    """The functions and triggers that keep the counts. Filings and memories inserted or deleted
    are counted a statement at a time; a memory's update only when it changes whether or where it
    counts (the trigger's WHEN is evaluated without calling anything)."""
    not_these = "AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = g.id)"
    filed = f"""INSERT INTO {DELTAS} ({_COLUMNS}) {
        _contribution(_paths("added f"), "memory_memory r", 1, extra=_uncovered(not_these))
    }"""
    unfiled = f"""INSERT INTO {DELTAS} ({_COLUMNS}) {
        _contribution(_paths("removed f"), "memory_memory r", -1, extra=_uncovered())
    }"""
    stored = f"""INSERT INTO {DELTAS} ({_COLUMNS}) {
        _contribution(_paths("categories_filing f JOIN added x ON x.id = f.memory_id"), "added r", 1)
    }"""
    erased = f"""INSERT INTO {DELTAS} ({_COLUMNS}) {
        _contribution(_paths("categories_filing f JOIN removed x ON x.id = f.memory_id"), "removed r", -1)
    }"""
    old_pairs = _paths("categories_filing f", "f.memory_id = OLD.id")
    moved = f"""INSERT INTO {DELTAS} ({_COLUMNS})
        {_contribution(old_pairs, "(SELECT OLD.*) r", -1)}
        UNION ALL
        {_contribution(old_pairs, "(SELECT NEW.*) r", 1)}"""
    changed = " OR ".join(
        f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in ("deleted_at", "valid_to", "visible_in", "user_id")
    )
    functions = {
        "categories_filing_counts_added": filed,
        "categories_filing_counts_removed": unfiled,
        "memory_memory_categories_added": stored,
        "memory_memory_categories_removed": erased,
        "memory_memory_categories_changed": moved,
    }
    return [
        *(
            f"""CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN {body}; RETURN NULL; END $$"""
            for name, body in functions.items()
        ),
        """CREATE TRIGGER categories_filing_counts_added AFTER INSERT ON categories_filing
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION categories_filing_counts_added()""",
        """CREATE TRIGGER categories_filing_counts_removed AFTER DELETE ON categories_filing
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION categories_filing_counts_removed()""",
        """CREATE TRIGGER memory_memory_categories_added AFTER INSERT ON memory_memory
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_categories_added()""",
        """CREATE TRIGGER memory_memory_categories_removed AFTER DELETE ON memory_memory
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_categories_removed()""",
        f"""CREATE TRIGGER memory_memory_categories_changed AFTER UPDATE ON memory_memory
            FOR EACH ROW WHEN ({changed}) EXECUTE FUNCTION memory_memory_categories_changed()""",
    ]


def uninstall_sql() -> list[str]:
    triggers = [
        ("categories_filing_counts_added", "categories_filing"),
        ("categories_filing_counts_removed", "categories_filing"),
        ("memory_memory_categories_added", "memory_memory"),
        ("memory_memory_categories_removed", "memory_memory"),
        ("memory_memory_categories_changed", "memory_memory"),
    ]
    return [f"DROP TRIGGER IF EXISTS {name} ON {table}" for name, table in triggers] + [
        f"DROP FUNCTION IF EXISTS {name}()" for name, _ in triggers
    ]


def category_counts(
    *, readable: list[int] | None, user_id: str | None, under: str | None, limit: int | None, offset: int
) -> list[tuple[str, int, Any]]:
    """(path, memories, newest) for the categories holding a memory a reader who sees ``readable``
    (None: every workspace) may see, of ``user_id`` when given, below ``under`` when given;
    largest first (``limit`` None: all of them)."""
    clauses = ["user_id = %(owner)s" if user_id is not None else "user_id IS NULL"]
    if readable is not None:
        clauses.append("visibility && %(readable)s::int[]")
    if under:
        clauses.append("path LIKE %(under)s")
    picked = " AND ".join(clauses)
    with reader().cursor() as cursor:
        cursor.execute(
            f"""WITH counts AS (
                    SELECT path, memories, newest FROM {TOTALS} WHERE {picked}
                    UNION ALL
                    SELECT path, memories, newest FROM {DELTAS} WHERE {picked}
                )
                SELECT path, sum(memories), max(newest) FROM counts GROUP BY path HAVING sum(memories) > 0
                ORDER BY sum(memories) DESC, path LIMIT %(limit)s OFFSET %(offset)s""",
            {
                "owner": user_id,
                "readable": readable,
                "under": f"{under}/%" if under else None,
                "limit": limit,
                "offset": offset,
            },
        )
        return [(path, int(count), newest) for path, count, newest in cursor.fetchall()]


def category_size(*, readable: list[int] | None, user_id: str | None, path: str) -> int:
    """How many memories filed under ``path`` (or below) a reader who sees ``readable`` may see,
    of ``user_id`` when given."""
    clauses = ["path = %(path)s", "user_id = %(owner)s" if user_id is not None else "user_id IS NULL"]
    if readable is not None:
        clauses.append("visibility && %(readable)s::int[]")
    picked = " AND ".join(clauses)
    with reader().cursor() as cursor:
        cursor.execute(
            f"""SELECT coalesce(sum(memories), 0) FROM (
                    SELECT memories FROM {TOTALS} WHERE {picked}
                    UNION ALL
                    SELECT memories FROM {DELTAS} WHERE {picked}
                ) counted""",
            {"path": path, "owner": user_id, "readable": readable},
        )
        return int(cursor.fetchone()[0])


def counts_fold(*, wait: bool = False) -> int:
    """Move the pending deltas into the totals; the number of totals written. Another fold
    already running makes this one a no-op, unless asked to ``wait`` for it."""
    return deltas_fold(
        lock=_FOLD_LOCK,
        wait=wait,
        deltas=DELTAS,
        statements=[
            f"""WITH gone AS (DELETE FROM {DELTAS} RETURNING {_COLUMNS})
                INSERT INTO {TOTALS} AS k ({_COLUMNS})
                SELECT visibility, user_id, path, sum(memories), max(newest)
                FROM gone GROUP BY visibility, user_id, path
                ON CONFLICT (user_id, path, visibility) DO UPDATE SET
                    memories = k.memories + excluded.memories, newest = greatest(k.newest, excluded.newest)""",
            # An owner whose last memory left is no longer named here (an erasure relies on it).
            f"DELETE FROM {TOTALS} WHERE memories <= 0",
        ],
    )


def counts_recount() -> int:
    """Count afresh from the memories and filings (the first time, or to repair): writers of
    either wait while it runs; readers go on. The number of totals written."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_advisory_xact_lock({_FOLD_LOCK})")
        cursor.execute("LOCK TABLE memory_memory, categories_filing IN SHARE MODE")
        cursor.execute(f"DELETE FROM {DELTAS}")
        cursor.execute(f"DELETE FROM {TOTALS}")
        cursor.execute(f"INSERT INTO {TOTALS} ({_COLUMNS}) {counted_sql()}")
        return cursor.rowcount

"""How many memories each owner holds in each workspace, kept as memories change instead of counted
at each visit of the owners page (counting an owner's rows reads every one of them: 2.5 s for a page
of owners at 300,000 memories).

What counts: ``memories``, a memory not forgotten and not superseded (an expired one counts until
the lifecycle sweep removes it, as in the category counts); ``held``, every row in any state, so an
owner whose memories were all forgotten is still listed until erased. A memory counts once in each
workspace of its ``visible_in`` (under null when it has none); ``newest`` is the last write or change
of state of a memory counted in.

As ``memory.categories.counts`` does: triggers on the memories append every change as a delta row,
never updated; the fold (the worker, every minute, and every erasure) moves them into the totals in
one transaction; a reader sums totals and pending deltas in one statement, so it sees exactly the
writes committed before it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import QuerySet

from memory.categories.counts import COUNTED
from memory.erasure.plan import ErasurePlan
from memory.erasure.services import ErasedTable
from memory.search.corpus import deltas_fold
from stewardship.models import OwnerCount, OwnerCountDelta

TOTALS = "stewardship_ownercount"
DELTAS = "stewardship_ownercountdelta"
_COLUMNS = "user_id, workspace_id, memories, held, newest"
_FOLD_LOCK = "hashtext('stewardship_owner_counts_fold')"
CURRENT = COUNTED  # a memory the category counts count: not forgotten, not superseded
_WORKSPACES = "unnest(CASE WHEN cardinality(r.visible_in) > 0 THEN r.visible_in ELSE ARRAY[NULL]::int[] END)"
_TRIGGERS = ("added", "removed", "changed")


@dataclass(frozen=True)
class OwnerRow:
    user_id: str
    workspace_id: int | None
    memories: int
    held: int
    newest: datetime | None


def _contribution(rows: str, sign: int) -> str:
    """SELECT what ``rows`` (a FROM item named ``r``) add to the counts, times ``sign``."""
    newest = "max(r.updated_at)" if sign > 0 else "NULL::timestamptz"
    return f"""SELECT r.user_id, w.workspace_id, {sign} * count(*) FILTER (WHERE {CURRENT}), {sign} * count(*), {newest}
        FROM {rows} CROSS JOIN LATERAL {_WORKSPACES} AS w(workspace_id)
        GROUP BY r.user_id, w.workspace_id"""


def install_sql() -> list[str]:
    """The functions and triggers that keep the counts: inserts and deletes a statement at a time,
    an update only when it changes whether, where or whose a memory counts."""
    bodies = {
        "added": f"INSERT INTO {DELTAS} ({_COLUMNS}) {_contribution('added r', 1)}",
        "removed": f"INSERT INTO {DELTAS} ({_COLUMNS}) {_contribution('removed r', -1)}",
        "changed": f"""INSERT INTO {DELTAS} ({_COLUMNS})
            {_contribution("(SELECT OLD.*) r", -1)} UNION ALL {_contribution("(SELECT NEW.*) r", 1)}""",
    }
    changed = " OR ".join(
        f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in ("deleted_at", "valid_to", "visible_in", "user_id")
    )
    return [
        *(
            f"""CREATE FUNCTION stewardship_owner_counts_{name}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN {body}; RETURN NULL; END $$"""
            for name, body in bodies.items()
        ),
        """CREATE TRIGGER stewardship_owner_counts_added AFTER INSERT ON memory_memory
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION stewardship_owner_counts_added()""",
        """CREATE TRIGGER stewardship_owner_counts_removed AFTER DELETE ON memory_memory
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION stewardship_owner_counts_removed()""",
        f"""CREATE TRIGGER stewardship_owner_counts_changed AFTER UPDATE ON memory_memory
            FOR EACH ROW WHEN ({changed}) EXECUTE FUNCTION stewardship_owner_counts_changed()""",
    ]


def uninstall_sql() -> list[str]:
    return [f"DROP TRIGGER IF EXISTS stewardship_owner_counts_{name} ON memory_memory" for name in _TRIGGERS] + [
        f"DROP FUNCTION IF EXISTS stewardship_owner_counts_{name}()" for name in _TRIGGERS
    ]


def owner_counts_fold(*, wait: bool = False) -> int:
    """Move the pending deltas into the totals; the number of totals written. Another fold already
    running makes this one a no-op, unless asked to ``wait`` for it."""
    return deltas_fold(
        lock=_FOLD_LOCK,
        wait=wait,
        deltas=DELTAS,
        statements=[
            f"""WITH gone AS (DELETE FROM {DELTAS} RETURNING {_COLUMNS})
                INSERT INTO {TOTALS} AS k ({_COLUMNS})
                SELECT user_id, workspace_id, sum(memories), sum(held), max(newest)
                FROM gone GROUP BY user_id, workspace_id
                ON CONFLICT (user_id, workspace_id) DO UPDATE SET
                    memories = k.memories + excluded.memories, held = k.held + excluded.held,
                    newest = greatest(k.newest, excluded.newest)""",
            # An owner whose last memory left is no longer named here (an erasure relies on it).
            f"DELETE FROM {TOTALS} WHERE held <= 0",
        ],
    )


def owner_counts_recount() -> int:
    """Count afresh from the memories (the first time, or to repair): writers wait while it runs;
    readers go on. The number of totals written."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_advisory_xact_lock({_FOLD_LOCK})")
        cursor.execute("LOCK TABLE memory_memory IN SHARE MODE")
        cursor.execute(f"DELETE FROM {DELTAS}")
        cursor.execute(f"DELETE FROM {TOTALS}")
        cursor.execute(f"INSERT INTO {TOTALS} ({_COLUMNS}) {_contribution('memory_memory r', 1)}")
        return cursor.rowcount


def owner_counts(
    *, user_id: str | None = None, text: str = "", after: tuple[str, int] | None = None, limit: int | None = None
) -> list[OwnerRow]:
    """Owners by workspace, ordered by owner then workspace id (a workspace-less row first): of
    ``user_id`` when given, those whose id holds ``text`` (any case), those after the key ``after``
    (owner, workspace id or 0); at most ``limit``."""
    clauses, values = ["TRUE"], {"owner": user_id, "text": text.lower(), "limit": limit}
    if user_id is not None:
        clauses.append("user_id = %(owner)s")
    if text:
        clauses.append("strpos(lower(user_id), %(text)s) > 0")
    if after is not None:
        clauses.append("user_id >= %(after_owner)s")
        clauses.append("(user_id, coalesce(workspace_id, 0)) > (%(after_owner)s, %(after_workspace)s)")
        values.update(after_owner=after[0], after_workspace=after[1])
    picked = " AND ".join(clauses)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""WITH counts AS (
                    SELECT {_COLUMNS} FROM {TOTALS} WHERE {picked}
                    UNION ALL
                    SELECT {_COLUMNS} FROM {DELTAS} WHERE {picked}
                )
                SELECT user_id, workspace_id, sum(memories), sum(held), max(newest) FROM counts
                GROUP BY user_id, workspace_id HAVING sum(held) > 0
                ORDER BY user_id, coalesce(workspace_id, 0) LIMIT %(limit)s""",
            values,
        )
        return [OwnerRow(owner, space, int(mine), int(held), newest) for owner, space, mine, held, newest in cursor]


def owner_count_tables(**signal_arguments: Any) -> list[ErasedTable]:
    """``erasure_tables``'s answer for the counts: erased after the memories, folded (the deltas
    their deletion appended, then the totals), so the owner's id leaves them with their last memory."""
    return [
        ErasedTable("changes to the owners' counts", DELTAS, "deleted", _pending_rows, _fold),
        ErasedTable("memories kept per owner", TOTALS, "deleted", _counted_rows, _fold),
    ]


def _pending_rows(plan: ErasurePlan) -> QuerySet[OwnerCountDelta]:
    rows = OwnerCountDelta.objects.filter(user_id=plan.user_id)
    return rows.filter(workspace_id=plan.workspace.pk) if plan.workspace else rows


def _counted_rows(plan: ErasurePlan) -> QuerySet[OwnerCount]:
    rows = OwnerCount.objects.filter(user_id=plan.user_id)
    return rows.filter(workspace_id=plan.workspace.pk) if plan.workspace else rows


def _fold(plan: ErasurePlan) -> None:
    owner_counts_fold(wait=True)

"""Erasing an owner from the room, and the audit trail's own part in every erasure.

In the room an erasure is ``memory.erasure.services.owner_erase`` behind a confirmation (the owner's
id typed again), with an audit line that keeps the counts and the verdict, never a text. Every
erasure, from the room or from ``manage.py erase_owner``, also redacts what the trail quotes of the
erased memories: a correction's line keeps who did what and when, and reads "[erased]" where it
held the statement.

A compaction afterwards (``manage.py erasure_compact``) rewrites the tables an erasure touches, so
the erased rows' bytes leave the database's files too, with an audit line of its tables, times
and sizes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet

from helixsite.errors import InvalidInput
from memory.erasure import compact
from memory.erasure import services as erase
from memory.erasure.compact import Compaction
from memory.erasure.ledger import LedgerEntry, Reapplied, ledger_reapply
from memory.erasure.plan import ErasurePlan, owner_id_clean
from memory.erasure.services import ERASED, ErasedTable, ErasureReport
from stewardship.models import AuditEntry
from stewardship.services import audit_record


def owner_erase(*, actor: User, user_id: str, workspace: str | None, confirm: str) -> ErasureReport:
    owner = owner_id_clean(user_id)
    if confirm.strip() != owner:
        message = f"Type the owner's id, {owner}, exactly as it is to erase."
        raise InvalidInput(message, code="unconfirmed", field="confirm")
    with transaction.atomic():
        report = erase.owner_erase(user_id=owner, workspace=workspace, requested_by=actor.get_username())
        audit_record(
            actor=actor,
            action="owner.erase",
            target=f"owner:{owner}" + (f" in workspace:{report.workspace}" if report.workspace else ""),
            before={count.name: count.before for count in report.tables if count.before},
            after={
                "passed": report.passed,
                "rows_left": report.left,
                "text_check": report.check.as_dict(),
                "refreshed": report.refreshed,
            },
        )
    return report


def erasures_reapply(*, entries: list[LedgerEntry], because: str, actor_name: str) -> list[Reapplied]:
    """Honour a ledger in this database (``memory.erasure.ledger``), with an audit line for each
    erasure made again: a restore's, or an operator's after restoring an archive by hand."""
    done = ledger_reapply(entries, because=because)
    for again in done:
        entry = again.entry
        AuditEntry.objects.create(
            actor=None,
            actor_name=actor_name[:150],
            action="owner.erase.reapply",
            target=f"owner:{entry.user_id}" + (f" in workspace:{entry.workspace}" if entry.workspace else ""),
            before={"erased_at": entry.erased_at.isoformat(), "erasure": str(entry.id)},
            after={"because": because[:300], "rows_erased_again": again.rows, "passed": again.passed},
        )
    return done


def erasure_compact(
    *, actor_name: str, tables: list[str] | None = None, session_wait: float | None = None
) -> Compaction:
    """Compact the tables an erasure touches, or those of them ``tables`` names, and write an audit
    line: each table's time and size before and after, the sessions it waited for in vain, and the
    checkpoint's outcome."""
    compaction = compact.erasure_compact(tables=tables, session_wait=session_wait)
    AuditEntry.objects.create(
        actor=None,
        actor_name=actor_name[:150],
        action="erasure.compact",
        target=f"tables:{len(compaction.tables)} an erasure touches",
        before={table.table: table.bytes_before for table in compaction.tables},
        after={
            "complete": compaction.complete,
            "seconds": round(compaction.seconds, 3),
            "checkpoint": compaction.checkpoint,
            "held": compaction.held,
            "tables": {
                table.table: {"seconds": round(table.seconds, 3), "bytes": table.bytes_after, "skipped": table.skipped}
                for table in compaction.tables
            },
        },
    )
    return compaction


def audit_trail_tables(**signal_arguments: Any) -> list[ErasedTable]:
    """``erasure_tables``'s answer for the audit trail (connected in ``StewardshipConfig.ready``)."""
    table = AuditEntry._meta.db_table
    return [ErasedTable("audit lines quoting an erased memory", table, "redacted", _quoting, _redact)]


def _quoting(plan: ErasurePlan) -> QuerySet[AuditEntry]:
    targets = [f"memory:{pk}" for pk in plan.memory_ids]
    held = (Q(before__has_key="content") & ~Q(before__content=ERASED)) | (
        Q(after__has_key="content") & ~Q(after__content=ERASED)
    )
    return AuditEntry.objects.filter(target__in=targets).filter(held)


def _redact(plan: ErasurePlan) -> None:
    entries = list(_quoting(plan))
    for entry in entries:
        entry.before, entry.after = _redacted(entry.before), _redacted(entry.after)
    AuditEntry.objects.bulk_update(entries, ["before", "after"])


def _redacted(state: Any) -> Any:
    return {**state, "content": ERASED} if isinstance(state, dict) and "content" in state else state

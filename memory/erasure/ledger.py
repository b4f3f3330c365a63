"""The ledger of erasures, as it travels: exported from one database and honoured in another.

A restore puts an older database in place of the live one; every erasure made since must hold
in it before it serves. ``ledger_export`` lists the live ledger; ``ledger_reapply``, run against
the restored database, enters each erasure it does not hold yet (same id, same time) and erases
that owner again there. An erasure the restored database already holds was made before the backup
and is reflected in its rows (the erasure and its ledger row commit together), so it is skipped:
honouring a ledger twice changes nothing.

Entries come from a file an operator may have edited (``manage.py erasure_ledger --reapply``):
each is checked, and a bad one refuses the whole file before anything is erased."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from helixsite.errors import InvalidInput, NotFound
from memory.erasure.plan import erasure_plan, owner_id_clean
from memory.erasure.services import plan_erase
from memory.models import Erasure


@dataclass(frozen=True)
class LedgerEntry:
    id: uuid.UUID
    erased_at: datetime
    user_id: str
    workspace: str
    requested_by: str
    rows_erased: int
    reapplied: tuple[dict[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "erased_at": self.erased_at.isoformat(),
            "user_id": self.user_id,
            "workspace": self.workspace,
            "requested_by": self.requested_by,
            "rows_erased": self.rows_erased,
            "reapplied": list(self.reapplied),
        }


@dataclass(frozen=True)
class Reapplied:
    """One erasure honoured again: the rows it found to erase (none when the backup held nothing
    of the owner there), and whether the check after it passed."""

    entry: LedgerEntry
    rows: int
    passed: bool
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {**self.entry.as_dict(), "rows_erased_again": self.rows, "passed": self.passed, "note": self.note}


def ledger_export() -> list[LedgerEntry]:
    """The whole ledger, oldest first."""
    return [_entry_of(row) for row in Erasure.objects.order_by("erased_at", "id")]


def _entry_of(row: Erasure) -> LedgerEntry:
    again = tuple(row.reapplied) if isinstance(row.reapplied, list) else ()
    return LedgerEntry(row.id, row.erased_at, row.user_id, row.workspace, row.requested_by, row.rows_erased, again)


def ledger_entries_read(raw: Any) -> list[LedgerEntry]:
    """Entries from their JSON form (a list of objects, as ``LedgerEntry.as_dict`` writes them)."""
    if not isinstance(raw, list):
        raise InvalidInput("The ledger is a JSON list of erasures.", field="ledger")
    return [_entry_read(item, at) for at, item in enumerate(raw)]


def _entry_read(item: Any, at: int) -> LedgerEntry:
    field = f"ledger[{at}]"
    if not isinstance(item, dict):
        raise InvalidInput("Each erasure is a JSON object.", field=field)
    try:
        entry_id = uuid.UUID(str(item.get("id")))
    except ValueError:
        raise InvalidInput("An erasure's id is a UUID.", field=f"{field}.id") from None
    erased_at = parse_datetime(str(item.get("erased_at") or ""))
    if erased_at is None or timezone.is_naive(erased_at):
        raise InvalidInput("erased_at is an RFC 3339 instant with its offset.", field=f"{field}.erased_at")
    rows = item.get("rows_erased", 0)
    if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
        raise InvalidInput("rows_erased is a count.", field=f"{field}.rows_erased")
    workspace, requested_by = item.get("workspace") or "", item.get("requested_by") or ""
    if not isinstance(workspace, str) or not isinstance(requested_by, str):
        raise InvalidInput("workspace and requested_by are strings.", field=field)
    again = item.get("reapplied") or []
    if not isinstance(again, list) or not all(isinstance(a, dict) for a in again):
        raise InvalidInput("reapplied is a list of objects.", field=f"{field}.reapplied")
    owner = owner_id_clean(str(item.get("user_id") or ""))
    return LedgerEntry(entry_id, erased_at, owner, workspace[:100], requested_by[:150], rows, tuple(again))


def ledger_reapply(entries: list[LedgerEntry], *, because: str) -> list[Reapplied]:
    """Honour every erasure of ``entries`` this database does not hold yet, oldest first: each in
    a transaction of its own with its ledger row, so the ledger never says more than was done. One
    it holds keeps the longer record of the times it was honoured again."""
    held = {row.pk: row for row in Erasure.objects.filter(pk__in=[e.id for e in entries])}
    done = []
    for entry in sorted(entries, key=lambda e: (e.erased_at, str(e.id))):
        row = held.get(entry.id)
        if row is None:
            done.append(_reapply(entry, because=because))
        elif len(entry.reapplied) > len(row.reapplied or []):
            Erasure.objects.filter(pk=row.pk).update(reapplied=list(entry.reapplied))
    return done


def _reapply(entry: LedgerEntry, *, because: str) -> Reapplied:
    with transaction.atomic():
        try:
            plan = erasure_plan(user_id=entry.user_id, workspace=entry.workspace or None)
        except NotFound:
            rows, passed, note = 0, True, f"no workspace {entry.workspace} here: nothing of theirs to erase"
        else:
            # No buffered write is being run in this database (no worker serves it): nothing to wait for.
            report = plan_erase(plan)
            rows, passed, note = report.erased, report.passed, ""
        again = {"at": timezone.now().isoformat(), "because": because[:300], "rows": rows, "passed": passed}
        Erasure.objects.create(
            id=entry.id,
            erased_at=entry.erased_at,
            user_id=entry.user_id,
            workspace=entry.workspace,
            requested_by=entry.requested_by,
            rows_erased=entry.rows_erased,
            reapplied=[*entry.reapplied, again],
        )
    return Reapplied(entry, rows, passed, note)

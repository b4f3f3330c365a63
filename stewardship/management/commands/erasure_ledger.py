"""The ledger of erasures: list it, export it, or honour an exported one in this database.

A restore from the room honours the ledger by itself. After restoring an archive by hand (an
external DATABASE_URL), export the ledger before (``--export ledger.json``) and honour it after
(``--reapply ledger.json``): every erasure made since the backup is made again."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from rich.console import Console
from rich.table import Table

from helixsite.commands import ServiceCommand
from memory.erasure.ledger import ledger_entries_read, ledger_export
from stewardship.erasure import erasures_reapply

LEDGER_FILE_BYTES = 64 * 1024 * 1024


class Command(ServiceCommand):
    help = (
        "List the ledger of erasures (who, where, when, how many rows; never what they said), export it as "
        "JSON, or honour an exported ledger in this database: each erasure it does not hold is made again."
    )

    def add_arguments(self, parser) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--export", metavar="FILE", help="write the ledger as JSON to FILE (- for standard output)")
        what.add_argument(
            "--reapply", metavar="FILE", help="honour the ledger in FILE (from --export) in this database"
        )
        parser.add_argument("--because", default="", help="with --reapply: why, for the ledger and the audit trail")
        parser.add_argument("--actor", default="", help="with --reapply: the name the audit lines give")
        parser.add_argument("--json", action="store_true", help="with --reapply: print what was erased again as JSON")

    def handle(self, *args: Any, export: str | None, reapply: str | None, **options: Any) -> None:
        if export:
            self._export(export)
        elif reapply:
            self._reapply(reapply, because=options["because"], actor=options["actor"], as_json=options["json"])
        else:
            self._list()

    def _export(self, target: str) -> None:
        text = json.dumps([entry.as_dict() for entry in ledger_export()], indent=2)
        if target == "-":
            self.stdout.write(text)
        else:
            Path(target).write_text(text + "\n")
            self.stdout.write(f"Wrote the ledger to {target}.")

    def _reapply(self, source: str, *, because: str, actor: str, as_json: bool) -> None:
        try:
            with sys.stdin if source == "-" else Path(source).open() as handle:
                text = handle.read(LEDGER_FILE_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read the ledger: {exc}") from None
        if len(text) > LEDGER_FILE_BYTES:
            raise CommandError(f"The ledger file is larger than {LEDGER_FILE_BYTES} bytes.")
        try:
            raw = json.loads(text)
        except ValueError as exc:
            raise CommandError(f"The ledger is not JSON: {exc}") from None
        entries = ledger_entries_read(raw)
        done = erasures_reapply(
            entries=entries,
            because=because or "manage.py erasure_ledger --reapply",
            actor_name=actor or "manage.py erasure_ledger",
        )
        if as_json:
            self.stdout.write(json.dumps([again.as_dict() for again in done]))
            return
        self.stdout.write(f"{len(entries)} erasures in the ledger, {len(done)} made again here.")
        for again in done:
            where = f" in {again.entry.workspace}" if again.entry.workspace else ""
            verdict = "passed" if again.passed else "FAILED"
            self.stdout.write(f"  {again.entry.user_id}{where}: {again.rows} rows erased again, check {verdict}")
        if not all(again.passed for again in done):
            raise CommandError("A check after erasing again failed: see the lines above.")

    def _list(self) -> None:
        table = Table("erased at", "owner", "workspace", "asked by", "rows", "erased again", title="Erasures")
        for entry in reversed(ledger_export()):
            table.add_row(
                f"{entry.erased_at:%Y-%m-%d %H:%M:%S}",
                entry.user_id,
                entry.workspace or "everywhere",
                entry.requested_by,
                str(entry.rows_erased),
                str(len(entry.reapplied)),
            )
        # Django's OutputWrapper is a text stream, but not declared as typing.IO, which rich asks for.
        Console(file=self.stdout, width=140).print(table)  # type: ignore[arg-type]

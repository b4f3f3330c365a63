"""Compact the tables an erasure touches, so the erased rows' bytes leave the database's files."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError
from rich.console import Console
from rich.table import Table

from helixsite.commands import ServiceCommand
from memory.erasure.compact import SESSION_WAIT_SECONDS, Compaction
from stewardship.erasure import erasure_compact


class Command(ServiceCommand):
    help = (
        "Rewrite every table an erasure deletes or rewrites rows in (VACUUM (FULL, ANALYZE), one table at a "
        "time, each locked against reads and writes while it is rewritten) and the column statistics "
        "(pg_statistic), then CHECKPOINT, so the erased rows' bytes leave the tables' files and the WAL may be "
        "recycled. Prints each table's time and size before and after, and writes an audit line."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--tables", nargs="+", metavar="TABLE", help="only these of the tables an erasure touches (default: all)"
        )
        parser.add_argument(
            "--session-wait",
            type=float,
            metavar="SECONDS",
            help=f"how long to wait for sessions older than the rewrites to end (default: {SESSION_WAIT_SECONDS})",
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument("--actor", default="", help="the name the audit line gives (default: the command's)")

    def handle(
        self, *args: Any, tables: list[str] | None, actor: str, session_wait: float | None, **options: Any
    ) -> None:
        if session_wait is not None and not 0 <= session_wait <= 3600:
            raise CommandError("--session-wait: give seconds from 0 to 3600.")
        actor_name = actor or "manage.py erasure_compact"
        compaction = erasure_compact(actor_name=actor_name, tables=tables, session_wait=session_wait)
        if options["json"]:
            self.stdout.write(json.dumps(compaction.as_dict()))
        else:
            self._print(compaction)
        if not compaction.complete:
            reasons = [f"{table.table}: {table.skipped}" for table in compaction.tables if table.skipped]
            if compaction.held:
                held = ", ".join(compaction.held)
                reasons.append(f"sessions older than the rewrites were still open ({held}); run again when they end")
            raise CommandError(f"Not compacted: {'; '.join(reasons)}.")

    def _print(self, compaction: Compaction) -> None:
        table = Table("table", "seconds", "MB before", "MB after", "", title="Compacted")
        for done in compaction.tables:
            sizes = _megabytes(done.bytes_before), _megabytes(done.bytes_after)
            table.add_row(done.table, f"{done.seconds:.2f}", *sizes, done.skipped)
        # Django's OutputWrapper is a text stream, but not declared as typing.IO, which rich asks for.
        Console(file=self.stdout, width=160).print(table)  # type: ignore[arg-type]
        before = sum(done.bytes_before for done in compaction.tables)
        after = sum(done.bytes_after for done in compaction.tables)
        count = len(compaction.tables)
        self.stdout.write(
            f"{count} table{'s' if count != 1 else ''} in {compaction.seconds:.1f} s: {_megabytes(before)} MB "
            f"before, {_megabytes(after)} MB after. Checkpoint: {compaction.checkpoint}."
        )


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.2f}"

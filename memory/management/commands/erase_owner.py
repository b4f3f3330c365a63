"""Erase everything stored about one owner, in one workspace or everywhere, and verify it."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandError
from rich.console import Console
from rich.table import Table

from helixsite.commands import ServiceCommand
from memory.erasure.services import ErasureReport, TableCount, owner_erase, owner_erasure_preview


class Command(ServiceCommand):
    help = (
        "Erase an owner's memories and everything that holds their words (history, runs, buffered writes, "
        "think sessions, reviews, notices, audit quotes), then search the database for what they said. "
        "Without --yes: print the counts and ask (on a terminal only)."
    )
    stealth_options = ("stdin",)

    def add_arguments(self, parser) -> None:
        parser.add_argument("user_id", help="the owner: the user_id their memories are stored under")
        parser.add_argument("--workspace", help="erase only what is visible in this workspace (slug)")
        parser.add_argument("--yes", action="store_true", help="erase without asking")

    def handle(self, *args: Any, user_id: str, workspace: str | None, yes: bool, **options: Any) -> None:
        preview = owner_erasure_preview(user_id=user_id, workspace=workspace)
        where = f" in workspace {preview.workspace}" if preview.workspace else ""
        if preview.empty:
            self.stdout.write(f"Nothing is stored about {preview.user_id}{where}: nothing to erase.")
            return
        self._print_counts(f"Stored about {preview.user_id}{where}", preview.tables)
        if preview.shared:
            self.stdout.write(
                f"{preview.shared} of these memories are visible in other workspaces too: erased there too."
            )
        if not yes:
            self._confirm(preview.user_id, options.get("stdin") or sys.stdin)
        report = owner_erase(user_id=preview.user_id, workspace=preview.workspace, requested_by="manage.py erase_owner")
        self._print_report(report)
        if not report.passed:
            raise CommandError("Verification failed: the rows above still hold what was erased.")

    def _confirm(self, owner: str, stdin: Any) -> None:
        if not stdin.isatty():
            raise CommandError("Not a terminal, so nothing was erased: run again with --yes to erase.")
        self.stdout.write(f"Type the owner's id, {owner}, to erase all of this: ", ending="")
        self.stdout.flush()
        if stdin.readline().strip() != owner:
            raise CommandError("Not confirmed: nothing was erased.")

    def _print_counts(self, title: str, counts: list[TableCount], *, after: bool = False) -> None:
        table = Table("rows", "table", "action", "before", *(["after"] if after else []), title=title)
        for count in counts:
            if count.before or count.after:
                cells = [count.name, count.table, count.action, str(count.before)]
                table.add_row(*cells, *([str(count.after)] if after else []))
        # Django's OutputWrapper is a text stream, but not declared as typing.IO, which rich asks for.
        Console(file=self.stdout, width=140).print(table)  # type: ignore[arg-type]

    def _print_report(self, report: ErasureReport) -> None:
        self._print_counts("Erased", report.tables, after=True)
        check = report.check
        self.stdout.write(
            f"Searched {check.searched} erased texts in {check.columns} columns of {check.tables} tables; "
            f"{check.kept} still said in rows kept on purpose, {check.too_short} too short to search."
        )
        for found in check.found:
            self.stdout.write(f"still found in {found.table}: {found.rows} rows ({', '.join(found.row_ids)})")
        self.stdout.write(f"Refreshed: {', '.join(report.refreshed)}.")
        verdict = "PASSED: nothing of theirs is left" if report.passed else "FAILED"
        self.stdout.write(f"Verification {verdict} ({report.erased} rows erased, {report.left} left).")

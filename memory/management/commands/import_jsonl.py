"""Bulk-load memories from a JSON-lines file."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import CommandError
from tqdm import tqdm

from helixsite.commands import ServiceCommand
from memory.ingest.bulk import ImportRow, import_rows, parse_rows
from rbac.selectors import user_get_by_name


class Command(ServiceCommand):
    help = (
        "Load memories from a JSON-lines file, one memory a line: "
        '{"user_id": "...", "content": "...", "memory_type"?, "group_id"?, "metadata"?, "occurred_at"?, "agent_id"?}. '
        "Rows are stored as given (no extraction); exact repeats are skipped."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the .jsonl file, or - for standard input")
        parser.add_argument("--actor", required=True, help="the principal the memories are written by")
        parser.add_argument("--group", help="workspace for rows without group_id")
        parser.add_argument("--batch-size", type=int, default=256)
        parser.add_argument(
            "--rebuild-index",
            choices=["auto", "always", "never"],
            default="auto",
            help="drop the vector index during the load and build it at the end (auto: for large loads)",
        )
        parser.add_argument(
            "--strict", action="store_true", help="stop at the first bad line (default: report and skip)"
        )

    def handle(
        self,
        *args,
        path: str,
        actor: str,
        group: str | None,
        batch_size: int,
        rebuild_index: str,
        strict: bool,
        **options,
    ):
        principal = user_get_by_name(username=actor)
        lines = sys.stdin if path == "-" else _open(path)
        rows: list[ImportRow] = []
        bad: list[str] = []
        for item in parse_rows(lines, default_group=group):
            if isinstance(item, str):
                bad.append(item)
            else:
                rows.append(item)
        if bad and strict:
            raise CommandError(bad[0])
        with tqdm(total=len(rows), unit="memory", file=self.stderr, disable=not rows) as bar:
            report = import_rows(
                actor=principal, rows=rows, batch_size=batch_size, rebuild_index=rebuild_index, progress=bar.update
            )
        for line in bad[:20]:
            self.stderr.write(f"skipped {line}")
        summary = (
            f"Read {report.read + len(bad)} lines: stored {report.stored}, skipped {report.duplicates} already stored"
        )
        self.stdout.write(
            self.style.SUCCESS(f"{summary}, {len(bad)} invalid.")
            + (" Vector index rebuilt." if report.index_rebuilt else "")
        )


def _open(path: str):
    file = Path(path)
    if not file.is_file():
        raise CommandError(f"{path} is not a readable file.")
    return file.open(encoding="utf-8")

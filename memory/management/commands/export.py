"""Write memories and documents to a portable archive that ``manage.py import`` loads into another
installation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tqdm import tqdm

from helixsite.commands import ServiceCommand
from memory.archive.export import Selection, archive_export


class Command(ServiceCommand):
    help = (
        "Write the selected memories and documents and everything that hangs on them (edges between the "
        "memories, history, entities and mentions, concepts, category filings, access counters; every version "
        "of the documents, their chunks with their vectors, the memories extracted from the chunks) to a portable "
        "archive: a new directory, or a gzipped tar of one when OUT ends in .tar.gz. Choose --workspace, --owner "
        "(both: their intersection) or --all."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("out", help="the archive to write: a new directory, or a file ending in .tar.gz")
        parser.add_argument(
            "--workspace",
            action="extend",
            nargs="+",
            default=[],
            metavar="SLUG",
            help="the memories and documents visible in these workspaces",
        )
        parser.add_argument(
            "--owner", metavar="USER_ID", help="only this owner's memories and documents (their user_id)"
        )
        parser.add_argument(
            "--all", action="store_true", dest="everything", help="every memory and document of the installation"
        )

    def handle(
        self, *args: Any, out: str, workspace: list[str], owner: str | None, everything: bool, **options: Any
    ) -> None:
        selection = Selection(workspaces=tuple(dict.fromkeys(workspace)), owner=owner, everything=everything)
        with tqdm(unit="row", file=self.stderr, desc="memories", mininterval=0.5) as bar:

            def progress(kind: str, rows: int) -> None:
                bar.set_description(kind, refresh=False)
                bar.update(rows)

            report = archive_export(out=Path(out), selection=selection, progress=progress)
        total = sum(report.rows.values())
        counts = ", ".join(f"{rows} {kind}" for kind, rows in report.rows.items())
        rate = total / report.seconds if report.seconds else 0.0
        self.stdout.write(
            self.style.SUCCESS(
                f"Exported {total} rows to {out} in {report.seconds:.1f} s ({rate:.0f} rows/s): {counts}."
            )
        )

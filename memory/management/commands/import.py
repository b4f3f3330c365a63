"""Load an archive written by ``manage.py export``, keeping the ids of memories, documents and
chunks, and the edges and links between them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from tqdm import tqdm

from helixsite.commands import ServiceCommand
from memory.archive.load import ImportReport, archive_import
from rbac.selectors import user_get_by_name


class Command(ServiceCommand):
    help = (
        "Load an archive written by manage.py export (a directory or a .tar.gz), keeping the ids of memories, "
        "documents and chunks, and the edges and links between them. "
        "Every file is checked against the manifest first, and a corrupt archive, another embedding model, a "
        "missing workspace or author refuse the import with nothing written. Resumable: run it again after an "
        "interruption and it continues; rows already here are skipped."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", help="the export directory or .tar.gz file")
        parser.add_argument("--actor", help="the principal that writes the memories of authors unknown here")
        parser.add_argument(
            "--workspace-map",
            action="extend",
            nargs="+",
            default=[],
            metavar="OLD=NEW",
            help="load what the archive holds in workspace OLD into workspace NEW of this installation",
        )
        parser.add_argument(
            "--reembed",
            action="store_true",
            help=(
                "embed every memory, entity and document chunk again with this installation's model (needed when "
                "the archive's differs)"
            ),
        )
        parser.add_argument("--batch-size", type=int, default=500, help="rows written per transaction")
        parser.add_argument(
            "--rebuild-index",
            choices=["auto", "always", "never"],
            default="auto",
            help="drop the vector indexes during the load and build them at the end (auto: for large loads)",
        )

    def handle(
        self,
        *args: Any,
        archive: str,
        actor: str | None,
        workspace_map: list[str],
        reembed: bool,
        batch_size: int,
        rebuild_index: str,
        **options: Any,
    ) -> None:
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        mapping = _workspace_map(workspace_map)
        principal = user_get_by_name(username=actor) if actor else None
        bars: list[tqdm] = []

        def progress(kind: str, rows: int, total: int) -> None:
            if not bars:
                bars.append(tqdm(total=total, unit="row", file=self.stderr, mininterval=0.5))
            bars[0].set_description(kind, refresh=False)
            bars[0].update(rows)

        try:
            report = archive_import(
                path=Path(archive),
                actor=principal,
                workspace_map=mapping,
                reembed=reembed,
                batch_size=batch_size,
                rebuild_index=rebuild_index,
                progress=progress,
            )
        finally:
            for bar in bars:
                bar.close()
        self._summary(archive, report)

    def _summary(self, archive: str, report: ImportReport) -> None:
        rate = report.rows / report.seconds if report.seconds else 0.0
        written = sum(count.written for count in report.counts.values())
        present = sum(count.present for count in report.counts.values())
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {archive}: {report.rows} rows read in {report.seconds:.1f} s ({rate:.0f} rows/s), "
                f"{written} written, {present} skipped as already here."
            )
        )
        width = max(len(kind) for kind in report.counts)
        for kind, count in report.counts.items():
            left_out = f", {count.left_out} left out" if count.left_out else ""
            self.stdout.write(f"  {kind:<{width}} {count.written} written, {count.present} already here{left_out}")
        merged = report.counts["memories"].left_out
        if merged:
            self.stdout.write(
                f"{merged} memories equal to one already here were merged into it: their edges and chunk links "
                "point to it, what hung on them alone was left out."
            )
        equal = report.counts["documents"].left_out
        if equal:
            self.stdout.write(
                f"{equal} documents had the content, or the title and source, of one of the owner's documents already "
                "here: they were left out with their versions and chunks."
            )
        if report.indexes_rebuilt:
            self.stdout.write(f"Vector index rebuilt: {', '.join(report.indexes_rebuilt)}.")


def _workspace_map(pairs: list[str]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise CommandError(f"--workspace-map {pair}: write it OLD=NEW (the archive's slug = a slug here).")
        if mapping.get(old.strip(), new.strip()) != new.strip():
            raise CommandError(f"--workspace-map maps {old.strip()} twice.")
        mapping[old.strip()] = new.strip()
    return mapping

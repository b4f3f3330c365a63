"""Import a mem0 OSS store into a workspace: every memory with its ids, metadata, times and history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from tqdm import tqdm

from helixsite.commands import ServiceCommand
from memory.mem0_import.conductor import DELETED_OWNER, ImportReport, mem0_import
from rbac.selectors import user_get_by_name


class Command(ServiceCommand):
    help = (
        "Import a mem0 OSS store, read through mem0's own library from its config (a JSON or YAML file holding the "
        "dict mem0's Memory.from_config takes: any vector store mem0 supports, and history_db_path). Every memory "
        "keeps mem0's id, its user, agent and run ids (as the /mem0/ door maps them), its metadata and times; its "
        "history becomes revisions (UPDATE) and a forget (DELETE). Stored verbatim, embedded again with this "
        "installation's model. Resumable and idempotent: memories already here are passed over."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("config", help="mem0's config: a .json file, or YAML")
        parser.add_argument(
            "--workspace", required=True, help="the workspace (slug or id) to import into; it must exist"
        )
        parser.add_argument("--actor", required=True, help="the principal the memories are written by")
        parser.add_argument(
            "--deleted-owner",
            default=DELETED_OWNER,
            help=f"the owner of the memories mem0 deleted, which it keeps no owner of (default: {DELETED_OWNER})",
        )
        parser.add_argument("--skip-deleted", action="store_true", help="leave out the memories mem0 deleted")
        parser.add_argument(
            "--without-history",
            action="store_true",
            help="import the memories as they stand, without reading mem0's history (nor finding those it deleted)",
        )
        parser.add_argument("--dry-run", action="store_true", help="read the store and say what would be imported")
        parser.add_argument("--batch-size", type=int, default=128, help="memories embedded at once")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print the summary as one JSON object")

    def handle(
        self,
        *args: Any,
        config: str,
        workspace: str,
        actor: str,
        deleted_owner: str,
        skip_deleted: bool,
        without_history: bool,
        dry_run: bool,
        batch_size: int,
        as_json: bool,
        **options: Any,
    ) -> None:
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        if not deleted_owner.strip() or len(deleted_owner) > 200:
            raise CommandError("--deleted-owner must be 1 to 200 characters.")
        principal = user_get_by_name(username=actor)
        bars: list[tqdm] = []

        def progress(report: ImportReport, handled: int, total: int) -> None:
            if not bars:
                bars.append(tqdm(total=total, unit="memory", file=self.stderr, mininterval=0.5, disable=not total))
            bars[0].set_postfix(imported=report.imported, already_here=report.already_here, refresh=False)
            bars[0].update(handled)

        try:
            report = mem0_import(
                config_path=Path(config),
                workspace=workspace,
                actor=principal,
                deleted_owner=deleted_owner.strip(),
                skip_deleted=skip_deleted,
                without_history=without_history,
                dry_run=dry_run,
                batch_size=batch_size,
                progress=progress,
            )
        finally:
            for bar in bars:
                bar.close()
        if as_json:
            self.stdout.write(json.dumps(report.as_json(), sort_keys=True))
        else:
            self._summary(config, report, deleted_owner.strip())

    def _summary(self, config: str, report: ImportReport, deleted_owner: str) -> None:
        verb = "Would import" if report.dry_run else "Imported"
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb} the mem0 store of {config} into workspace {report.workspace}: {report.found} memories found "
                f"in {report.seconds:.1f} s, {report.imported} {'to import' if report.dry_run else 'imported'}, "
                f"{report.already_here} already here."
            )
        )
        self.stdout.write(f"  revisions (mem0's UPDATE events)  {report.revisions}")
        self.stdout.write(f"  forgotten (deleted in mem0)       {report.forgotten}")
        if not report.dry_run:
            self.stdout.write(f"  kept superseded as repeats        {report.repeats}")
        for why, count in report.left_out.items():
            self.stdout.write(f"  left out: {why}: {count}")
        if report.forgotten:
            self.stdout.write(
                f"mem0 keeps no owner, agent or metadata of the memories it deleted: they are imported, forgotten, "
                f"under owner {deleted_owner} (--deleted-owner, or --skip-deleted to leave them out)."
            )
        if report.repeats:
            self.stdout.write(
                "A repeat says what a memory of the same owner already says: it is kept, superseded by that one "
                "(one current memory per owner and text)."
            )
        if report.elsewhere:
            self.stdout.write(
                f"{report.elsewhere} memories already here under their mem0 id are not in workspace "
                f"{report.workspace} (imported into another workspace): left as they are."
            )
        if not report.history_read:
            self.stdout.write(
                "Without mem0's history (--without-history): the memories were imported as they stand, and those "
                "mem0 deleted were not looked for."
            )

"""``manage.py backup``: take a backup now (in this process), or list, verify the vault's backups."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.http import Http404

from helixsite.errors import ApplicationError
from stewardship.vault import selectors, services
from stewardship.vault.jobs import job_claim
from stewardship.vault.models import VaultJob
from stewardship.vault.verify import verify_problem


class Command(BaseCommand):
    help = "Take a backup of the database into the vault (HELIX_BACKUP_DIR); --list and --verify ID inspect it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--list", action="store_true", help="list the backups in the catalogue")
        parser.add_argument("--verify", metavar="ID", help="verify a backup: checksum, contents, test restore")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["list"]:
            self._list()
        elif options["verify"]:
            self._verify(options["verify"])
        else:
            self._create()

    def _create(self) -> None:
        try:
            backup = services.backup_now()
        except ApplicationError as error:
            raise CommandError(error.message) from error
        if not backup.ready:
            raise CommandError(f"backup {backup.id} failed: {backup.error}")
        self.stdout.write(f"backup {backup.id}: {backup.size_bytes} bytes, sha256 {backup.sha256}")

    def _list(self) -> None:
        for backup in selectors.backups_listed():
            verified = {True: "verified", False: "verify FAILED", None: "not verified"}[backup.verify_ok]
            size = backup.size_bytes if backup.size_bytes is not None else "-"
            self.stdout.write(f"{backup.id}  {backup.kind:9}  {backup.status:7}  {size:>12}  {verified}")

    def _verify(self, backup_id: str) -> None:
        try:
            backup = selectors.backup_get(backup_id=backup_id)
        except Http404:
            raise CommandError(f"no backup {backup_id}") from None
        if not backup.ready:
            raise CommandError(f"backup {backup_id} is {backup.status}")
        job = VaultJob.objects.create(kind=VaultJob.Kind.VERIFY, backup_id=backup.id)
        job = job_claim(job_id=job.id) or job
        services.job_run(job=job)
        backup.refresh_from_db()
        problem = verify_problem(backup.verify_report)
        if problem:
            raise CommandError(f"backup {backup_id} failed verification: {problem}")
        self.stdout.write(f"backup {backup_id} verified: {backup.verify_report['test_restore']['detail']}")

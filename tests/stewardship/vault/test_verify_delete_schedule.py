"""Verifying a backup (checksum, table of contents, a test restore compared with the manifest),
deleting one (its id typed to confirm), and the schedule with its retention and its health."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from helixsite.errors import ApplicationError
from stewardship.models import AuditEntry
from stewardship.vault import archives, postgres
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.selectors import backup_check
from stewardship.vault.services import (
    backup_delete,
    backup_now,
    backups_retention_apply,
    backups_scheduled_run,
    verify_request,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _scratch_databases() -> list[str]:
    with postgres.connect(dbname="postgres") as conn:
        rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [postgres.database_name() + "_%"])
        return [row[0] for row in rows.fetchall()]


def test_verify_checks_the_checksum_the_contents_and_a_test_restore(ada):
    backup = backup_now(actor=ada.user)

    job = verify_request(actor=ada.user, backup=backup)

    job.refresh_from_db()
    backup.refresh_from_db()
    assert (job.status, job.error) == ("succeeded", "")
    assert backup.verify_ok is True and backup.verified_at is not None
    report = backup.verify_report
    assert report["checksum"] == {"ok": True, "detail": f"sha256 {backup.sha256}"}
    assert report["contents"]["ok"] and report["test_restore"]["ok"]
    assert report["test_restore"]["detail"].endswith("as in the manifest")
    assert _scratch_databases() == [], "the scratch database is dropped"
    assert AuditEntry.objects.get(action="backup.verify").target == f"backup:{backup.id}"


def test_verify_finds_an_altered_archive(ada):
    backup = backup_now(actor=ada.user)
    with archives.archive_path(backup.id).open("ab") as archive:
        archive.write(b"tampered")

    job = verify_request(actor=ada.user, backup=backup)

    job.refresh_from_db()
    backup.refresh_from_db()
    assert job.status == "failed" and job.error.startswith("checksum: sha256 is ")
    assert backup.verify_ok is False and "contents" not in backup.verify_report


def test_verify_finds_row_counts_that_differ_from_the_manifest(ada, capsys):
    backup = backup_now(actor=ada.user)
    manifest = archives.manifest_read(backup.id)
    manifest["row_counts"]["auth_user"] = 5
    archives.manifest_write(backup.id, manifest)

    with pytest.raises(CommandError, match="test restore: row counts differ in 1 tables"):
        call_command("backup", verify=backup.id, stdout=io.StringIO())

    backup.refresh_from_db()
    assert backup.verify_report["test_restore"]["differing"] == {"auth_user": {"manifest": 5, "restored": 1}}
    assert _scratch_databases() == []


def test_deleting_needs_the_id_typed_and_removes_the_files(ada, vault_in_tmp):
    backup = backup_now(actor=ada.user)

    with pytest.raises(ApplicationError) as refused:
        backup_delete(actor=ada.user, backup=backup, confirm="yes")
    assert (refused.value.code, refused.value.field, refused.value.status) == ("confirmation", "confirm", 400)
    assert Backup.objects.filter(pk=backup.id).exists()

    backup_delete(actor=ada.user, backup=backup, confirm=backup.id)

    assert not Backup.objects.filter(pk=backup.id).exists()
    assert list(vault_in_tmp.glob(f"{backup.id}*")) == []
    assert AuditEntry.objects.get(action="backup.delete").before["sha256"] == backup.sha256


def test_a_backup_in_use_by_a_job_is_not_deleted(ada):
    backup = backup_now(actor=ada.user)
    VaultJob.objects.create(kind="verify", backup_id=backup.id, status="running")

    with pytest.raises(ApplicationError, match="A job is using this backup"):
        backup_delete(actor=ada.user, backup=backup, confirm=backup.id)

    assert archives.archive_path(backup.id).is_file()


def test_the_schedule_backs_up_when_one_is_due_and_keeps_the_newest(settings, transactional_db):
    settings.HELIX_BACKUP_KEEP = 2

    first = backups_scheduled_run()
    assert first is not None and first.status == "ready" and first.kind == "scheduled"
    assert backups_scheduled_run() is None, "the next hour: not due yet"

    Backup.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(hours=25))
    second = backups_scheduled_run()
    assert second is not None
    Backup.objects.filter(pk=second.pk).update(created_at=timezone.now() - timedelta(hours=25))
    third = backups_scheduled_run()

    assert list(Backup.objects.values_list("id", flat=True)) == [third.id, second.id]
    assert not archives.archive_path(first.id).exists()


def test_retention_follows_each_scheduled_backup_and_spares_manual_ones(settings, ada):
    settings.HELIX_BACKUP_KEEP = 1
    manual = backup_now(actor=ada.user)
    scheduled = [backup_now(kind=Backup.Kind.SCHEDULED) for _ in range(2)]

    assert set(Backup.objects.values_list("id", flat=True)) == {manual.id, scheduled[1].id}
    assert VaultJob.objects.get(backup_id=scheduled[1].id).result["retention_removed"] == [scheduled[0].id]
    assert backups_retention_apply() == []


def test_the_backup_check_is_red_after_a_failed_scheduled_backup(transactional_db):
    assert backup_check()["ok"] is True

    Backup.objects.create(id="20260101-000000-abcd", kind="scheduled", status="failed", error="disk full")

    check = backup_check()
    assert check["ok"] is False and check["error"] == "the scheduled backup 20260101-000000-abcd failed: disk full"

"""Reads of the vault: the catalogue, one backup (404 for anything not in it), a job, and the
backup check the observatory shows."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from helixsite import embedded_db
from stewardship.vault import archives
from stewardship.vault.models import Backup, VaultJob


def backups_listed() -> QuerySet[Backup]:
    return Backup.objects.all()


def backup_get(*, backup_id: str) -> Backup:
    if not archives.ID_PATTERN.fullmatch(backup_id):
        raise Http404
    backup = Backup.objects.filter(pk=backup_id).first()
    if backup is None:
        raise Http404
    return backup


def job_get(*, job_id: Any) -> VaultJob:
    job = VaultJob.objects.filter(pk=job_id).first()
    if job is None:
        raise Http404
    return job


def jobs_of(*, backup: Backup) -> QuerySet[VaultJob]:
    return VaultJob.objects.filter(backup_id=backup.id)[:20]  # type: ignore[return-value]


def running_job() -> VaultJob | None:
    return VaultJob.objects.unfinished().first()


def restore_offered() -> bool:
    return embedded_db.uses_embedded()


def backup_check() -> dict[str, Any]:
    """For the observatory: red when the newest scheduled backup failed, or when the newest good
    one is older than twice the interval (the schedule is not running)."""
    hours = settings.HELIX_BACKUP_INTERVAL_HOURS
    latest = Backup.objects.filter(kind=Backup.Kind.SCHEDULED).exclude(status=Backup.Status.RUNNING).first()
    good = Backup.objects.filter(status=Backup.Status.READY).first()
    check: dict[str, Any] = {
        "newest": good.id if good else "none",
        "schedule": f"every {hours:g} h" if hours else "off",
    }
    if latest is not None and latest.status == Backup.Status.FAILED:
        return {**check, "ok": False, "error": f"the scheduled backup {latest.id} failed: {latest.error[:200]}"}
    if hours and good is not None and good.created_at < timezone.now() - timedelta(hours=2 * hours):
        return {**check, "ok": False, "error": f"no backup for more than {2 * hours:g} hours"}
    return {**check, "ok": True}

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
from helixsite.runtime.models import ConfigVersion, Credential
from memory.documents.models import Document
from memory.models import Erasure, Memory, MemoryHistory
from stewardship.models import AuditEntry
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


def restore_since(*, backup: Backup) -> dict[str, Any]:
    """What a restore to ``backup`` would undo (what was written after it was taken) and what it
    would make again (the erasures since), for the restore form to say beforehand. The audit trail
    is kept whole by a restore, and every session ends with it."""
    since = backup.created_at
    return {
        "memories_written": Memory.objects.filter(created_at__gt=since).count(),
        "memories_changed": MemoryHistory.objects.filter(created_at__gt=since).count(),
        "documents_added": Document.objects.filter(created_at__gt=since).count(),
        "config_versions": list(
            ConfigVersion.objects.filter(created_at__gt=since).order_by("number").values_list("number", flat=True)
        ),
        "credentials_changed": list(
            Credential.objects.filter(changed_at__gt=since).order_by("name").values_list("name", flat=True)
        ),
        "room_actions": AuditEntry.objects.filter(at__gt=since).count(),
        "erasures": list(Erasure.objects.filter(erased_at__gt=since).order_by("erased_at")),
    }


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

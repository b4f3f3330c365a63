"""The catalogue rebuilt from the files: after a restore the table is the archive's older copy,
while the vault on disk holds every backup made since (the safety backup among them), each
manifest with the last verification of its backup."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from stewardship.vault import archives
from stewardship.vault.models import Backup, VaultJob

INTERRUPTED = "Interrupted: the database was restored from a backup taken while this ran."


def catalogue_reconcile() -> dict[str, int]:
    on_disk = archives.stored_ids()
    ready = set(Backup.objects.filter(pk__in=on_disk, status=Backup.Status.READY).values_list("pk", flat=True))
    imported = 0
    for backup_id in on_disk:
        manifest = archives.manifest_read(backup_id)
        if manifest is None:
            continue
        if backup_id in ready:
            if verification := _verification_from(manifest):
                Backup.objects.filter(pk=backup_id).update(**verification)
            continue
        Backup.objects.update_or_create(pk=backup_id, defaults=_row_from(manifest))
        imported += 1
    gone, _ = Backup.objects.filter(status=Backup.Status.READY).exclude(pk__in=on_disk).delete()
    Backup.objects.filter(status=Backup.Status.RUNNING).update(
        status=Backup.Status.FAILED, error=INTERRUPTED, finished_at=timezone.now()
    )
    unfinished = VaultJob.objects.unfinished()
    unfinished.filter(kind=VaultJob.Kind.BACKUP, backup_id__in=on_disk).update(
        status=VaultJob.Status.SUCCEEDED, step="done", finished_at=timezone.now()
    )
    unfinished.update(status=VaultJob.Status.FAILED, error=INTERRUPTED, finished_at=timezone.now())
    return {"imported": imported, "forgotten": gone}


def _row_from(manifest: dict[str, Any]) -> dict[str, Any]:
    created = parse_datetime(str(manifest.get("created_at", ""))) or timezone.now()
    kind = manifest.get("kind") if manifest.get("kind") in Backup.Kind.values else Backup.Kind.MANUAL
    return {
        "kind": kind,
        "status": Backup.Status.READY,
        "created_at": created,
        "finished_at": created,
        "created_by_name": str(manifest.get("created_by", ""))[:150],
        "size_bytes": manifest.get("size_bytes"),
        "sha256": str(manifest.get("sha256", ""))[:64],
        "manifest": manifest,
        "error": "",
        **_verification_from(manifest),
    }


def _verification_from(manifest: dict[str, Any]) -> dict[str, Any]:
    """The last verification the manifest keeps (``stewardship.vault.verify``), as the row's fields."""
    kept = manifest.get("verification")
    at = parse_datetime(str(kept.get("at", ""))) if isinstance(kept, dict) else None
    if at is None or not isinstance(kept, dict):
        return {}
    report = kept.get("report") if isinstance(kept.get("report"), dict) else {}
    return {"verified_at": at, "verify_ok": bool(kept.get("ok")), "verify_report": report}

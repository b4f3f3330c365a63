"""A vault job's life: claimed once (a conditional update, so a redelivered task never runs it
twice), its current step and bytes written for the job page, and its outcome."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from stewardship.vault.models import VaultJob


def job_claim(*, job_id: Any) -> VaultJob | None:
    now = timezone.now()
    claimed = VaultJob.objects.filter(pk=job_id, status=VaultJob.Status.QUEUED).update(
        status=VaultJob.Status.RUNNING, started_at=now, step="starting"
    )
    return VaultJob.objects.get(pk=job_id) if claimed else None


def job_step(job: VaultJob | None, step: str, *, progress_bytes: int | None = None) -> None:
    if job is None:
        return
    changes: dict[str, Any] = {"step": step[:200]}
    if progress_bytes is not None:
        changes["progress_bytes"] = progress_bytes
    VaultJob.objects.filter(pk=job.pk).update(**changes)


def job_finish(job: VaultJob, *, error: str = "", result: dict[str, Any] | None = None) -> None:
    status = VaultJob.Status.FAILED if error else VaultJob.Status.SUCCEEDED
    VaultJob.objects.filter(pk=job.pk).update(
        status=status, finished_at=timezone.now(), error=error[:4000], result=result or {}, step="done"
    )


def jobs_stale_fail() -> int:
    """Jobs whose worker died: unfinished for longer than a vault task may run."""
    limit = timezone.now() - timedelta(seconds=settings.HELIX_BACKUP_TIMEOUT + 300)
    return (
        VaultJob.objects.unfinished()
        .filter(created_at__lt=limit)
        .update(status=VaultJob.Status.FAILED, finished_at=timezone.now(), error="The job stopped without finishing.")
    )

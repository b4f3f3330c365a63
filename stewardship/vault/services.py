"""Writes of the vault: asking for a backup, a verify or a restore (each a job the worker runs),
deleting a backup, the scheduled backups and their retention, and running a claimed job.

One vault job runs at a time: a restore must never overlap a dump, and two dumps of a busy
database would only compete for the disk."""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from helixsite.errors import Conflict, InvalidInput, QueueUnavailable
from helixsite.task_broker import task_enqueue
from stewardship.services import audit_record
from stewardship.vault import archives
from stewardship.vault.dump import backup_take
from stewardship.vault.jobs import job_claim, job_finish, jobs_stale_fail
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.restore import restore_job, restore_recover, restore_refusal
from stewardship.vault.verify import backup_verify, verify_problem

logger = logging.getLogger("helixsite.vault")
TASK = "stewardship.vault.tasks.vault_job_run"
QUEUE_AWAY = "The task queue could not be reached; nothing was done."


def _vault_free() -> None:
    restore_recover()
    jobs_stale_fail()
    busy = VaultJob.objects.unfinished().first()
    if busy is not None:
        raise Conflict(f"A {busy.kind} of {busy.backup_id} is under way; wait until it ends.", code="vault_busy")


def _backup_new(*, kind: str, actor: User | None) -> Backup:
    now = timezone.now()
    name = actor.get_username() if actor is not None else ""
    return Backup.objects.create(
        id=archives.new_id(now), kind=kind, created_at=now, created_by=actor, created_by_name=name
    )


def _job_new(*, kind: str, backup_id: str, actor: User | None) -> VaultJob:
    name = actor.get_username() if actor is not None else ""
    return VaultJob.objects.create(kind=kind, backup_id=backup_id, actor=actor, actor_name=name)


def _enqueue(job: VaultJob) -> None:
    """The job's task, after commit. The vault is no queue to wait in: a job the worker's queue
    could not take (Redis away, HELIX_QUEUE_URL) would hold the vault, one job at a time, and run
    (a restore!) whenever Redis came back. So it is failed at once, saying why, with the backup it
    was to take, and the request is refused 503 ``queue_unavailable``: asked again later, it runs."""
    job_id = str(job.id)
    transaction.on_commit(lambda: _hand_to_worker(job_id))


def _hand_to_worker(job_id: str) -> None:
    if task_enqueue(TASK, job_id, timeout=settings.HELIX_BACKUP_TIMEOUT) is not None:
        return
    job = VaultJob.objects.get(pk=job_id)
    job_finish(job, error=QUEUE_AWAY)
    if job.kind == VaultJob.Kind.BACKUP:
        Backup.objects.filter(pk=job.backup_id, status=Backup.Status.RUNNING).update(
            status=Backup.Status.FAILED, finished_at=timezone.now(), error=QUEUE_AWAY
        )
    raise QueueUnavailable(f"{QUEUE_AWAY} Try again shortly.")


def backup_request(*, actor: User) -> VaultJob:
    """A manual backup, taken by the worker."""
    with transaction.atomic():
        _vault_free()
        backup = _backup_new(kind=Backup.Kind.MANUAL, actor=actor)
        job = _job_new(kind=VaultJob.Kind.BACKUP, backup_id=backup.id, actor=actor)
        audit_record(actor=actor, action="backup.create", target=f"backup:{backup.id}", after={"job": str(job.id)})
        _enqueue(job)
    return job


def backup_now(*, kind: str = Backup.Kind.MANUAL, actor: User | None = None) -> Backup:
    """A backup taken in this process (``manage.py backup``, the schedule), as a job the room shows."""
    with transaction.atomic():
        _vault_free()
        backup = _backup_new(kind=kind, actor=actor)
        job = _job_new(kind=VaultJob.Kind.BACKUP, backup_id=backup.id, actor=actor)
    job = job_claim(job_id=job.id) or job
    job_run(job=job)
    backup.refresh_from_db()
    return backup


def verify_request(*, actor: User, backup: Backup) -> VaultJob:
    _ready(backup)
    with transaction.atomic():
        _vault_free()
        job = _job_new(kind=VaultJob.Kind.VERIFY, backup_id=backup.id, actor=actor)
        audit_record(actor=actor, action="backup.verify", target=f"backup:{backup.id}", after={"job": str(job.id)})
        _enqueue(job)
    return job


def backup_delete(*, actor: User, backup: Backup, confirm: str) -> None:
    """Delete a backup; the operator types its id to confirm. Refused while a job uses it."""
    if confirm.strip() != backup.id:
        raise InvalidInput(f"Type the backup's id, {backup.id}, to delete it.", code="confirmation", field="confirm")
    with transaction.atomic():
        if VaultJob.objects.unfinished().filter(backup_id=backup.id).exists():
            raise Conflict("A job is using this backup; delete it once the job ends.", code="vault_busy")
        before = {
            "kind": backup.kind,
            "status": backup.status,
            "size_bytes": backup.size_bytes,
            "sha256": backup.sha256,
        }
        backup_id = backup.id
        audit_record(actor=actor, action="backup.delete", target=f"backup:{backup_id}", before=before)
        backup.delete()
        # The files go last, inside the transaction: a failure to remove them undoes the row's deletion.
        archives.remove(backup_id)


def restore_request(*, actor: User, backup: Backup, phrase: str) -> VaultJob:
    """Restore ``backup``, once the operator has typed exactly ``RESTORE <id>``."""
    if phrase != f"RESTORE {backup.id}":
        raise InvalidInput(
            f"Type exactly RESTORE {backup.id} to restore this backup.", code="confirmation", field="phrase"
        )
    _ready(backup)
    refusal = restore_refusal(archives.manifest_read(backup.id) or backup.manifest)
    if refusal is not None:
        raise refusal
    if not archives.archive_path(backup.id).is_file():
        raise Conflict(f"The archive of {backup.id} is missing from the vault.", code="backup_missing")
    with transaction.atomic():
        _vault_free()
        job = _job_new(kind=VaultJob.Kind.RESTORE, backup_id=backup.id, actor=actor)
        audit_record(actor=actor, action="backup.restore", target=f"backup:{backup.id}", after={"job": str(job.id)})
        _enqueue(job)
    return job


def _ready(backup: Backup) -> None:
    if not backup.ready:
        raise Conflict(f"Backup {backup.id} is {backup.status}, not ready.", code="backup_not_ready")


def vault_job_run(*, job_id: Any) -> None:
    """The worker's entry: run the job once, whoever else was handed it."""
    job = job_claim(job_id=uuid.UUID(str(job_id)))
    if job is not None:
        job_run(job=job)


def job_run(*, job: VaultJob) -> None:
    from_kind = {VaultJob.Kind.BACKUP: _backup_job, VaultJob.Kind.VERIFY: _verify_job}
    if job.kind == VaultJob.Kind.RESTORE:
        restore_job(job=job)  # it records its own outcome, in whichever database is live at the end
        return
    try:
        result = from_kind[job.kind](job)
    except Exception as exc:
        logger.exception("vault %s job %s failed", job.kind, job.id)
        job_finish(job, error=str(exc) or exc.__class__.__name__)
        return
    job_finish(job, error=result.pop("problem", ""), result=result)


def _backup_job(job: VaultJob) -> dict[str, Any]:
    backup = backup_take(backup=Backup.objects.get(pk=job.backup_id), job=job)
    result: dict[str, Any] = {"size_bytes": backup.size_bytes, "sha256": backup.sha256}
    if backup.kind == Backup.Kind.SCHEDULED:
        result["retention_removed"] = backups_retention_apply()
    return result


def _verify_job(job: VaultJob) -> dict[str, Any]:
    report = backup_verify(backup=Backup.objects.get(pk=job.backup_id), job=job)
    return {"report": report, "problem": verify_problem(report)}


def backups_scheduled_run() -> Backup | None:
    """The hourly schedule's task: a backup when the newest scheduled one is older than
    HELIX_BACKUP_INTERVAL_HOURS, as a job of its own (with the vault's task timeout, longer than
    the schedule's); the retention follows it. None when none was due or the vault is busy."""
    hours = settings.HELIX_BACKUP_INTERVAL_HOURS
    if hours <= 0:
        return None
    newest = Backup.objects.filter(kind=Backup.Kind.SCHEDULED, status=Backup.Status.READY).first()
    if newest is not None and newest.created_at > timezone.now() - timedelta(hours=hours):
        return None
    try:
        with transaction.atomic():
            _vault_free()
            backup = _backup_new(kind=Backup.Kind.SCHEDULED, actor=None)
            _enqueue(_job_new(kind=VaultJob.Kind.BACKUP, backup_id=backup.id, actor=None))
    except (Conflict, QueueUnavailable):
        return None  # another vault job runs, or the queue is away; the next hour tries again
    backup.refresh_from_db()
    return backup


def backups_retention_apply() -> list[str]:
    """Keep the newest HELIX_BACKUP_KEEP ready scheduled backups; manual and safety backups stay
    until someone deletes them."""
    ready = Backup.objects.filter(kind=Backup.Kind.SCHEDULED, status=Backup.Status.READY)
    old = list(ready.order_by("-created_at", "-id").values_list("id", flat=True)[settings.HELIX_BACKUP_KEEP :])
    busy = set(VaultJob.objects.unfinished().values_list("backup_id", flat=True))
    removed = []
    for backup_id in old:
        if backup_id in busy:
            continue
        Backup.objects.filter(pk=backup_id).delete()
        archives.remove(backup_id)
        removed.append(backup_id)
    return removed

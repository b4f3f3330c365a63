"""Taking a backup: one consistent snapshot, counted and dumped.

The manifest's row counts and migrations are read in the very snapshot pg_dump dumps
(``pg_export_snapshot``), so they describe exactly what the archive holds and a test restore can
be compared with them row for row."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

import helixsite
from memory.outbox.models import Notice, NoticeKind
from stewardship.vault import archives, postgres
from stewardship.vault.jobs import job_step
from stewardship.vault.models import Backup, VaultJob

MANIFEST_FORMAT = 1


def unarchived_tables() -> tuple[str, ...]:
    """Tables whose rows no archive holds (their definitions it does). The room's sessions are
    bearer secrets: a session key read from a downloaded archive would open the room as that admin.
    The database cache is the running processes' state (the workers' heartbeats, counters), not
    the installation's data: restored, a heartbeat from the backup's time would call a running
    worker dead. Queued tasks stay: they carry ids, signed with the secret key."""
    cache = settings.CACHES["default"]
    cached = [cache["LOCATION"]] if cache["BACKEND"].endswith("DatabaseCache") else []
    return ("django_session", *cached)


class BackupFailed(Exception):
    pass


def backup_take(*, backup: Backup, job: VaultJob | None) -> Backup:
    """Dump the database into ``backup``'s archive and write its manifest. On failure nothing is
    left on disk, the row says why, and a scheduled backup's failure alerts every global admin."""
    try:
        manifest = _dump_with_manifest(backup, job)
    except Exception as exc:
        archives.remove(backup.id)
        _failed(backup, f"{exc.__class__.__name__}: {exc}" if not isinstance(exc, BackupFailed) else str(exc))
        raise
    Backup.objects.filter(pk=backup.pk).update(
        status=Backup.Status.READY,
        finished_at=timezone.now(),
        size_bytes=manifest["size_bytes"],
        sha256=manifest["sha256"],
        manifest=manifest,
    )
    backup.refresh_from_db()
    return backup


def _dump_with_manifest(backup: Backup, job: VaultJob | None) -> dict[str, Any]:
    pg_dump = postgres.tool("pg_dump")
    archive = archives.archive_path(backup.id)
    with postgres.connect(autocommit=False) as snapshot_conn:
        snapshot_conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        snapshot_conn.read_only = True
        snapshot = snapshot_conn.execute("SELECT pg_export_snapshot()").fetchone()[0]  # type: ignore[index]
        job_step(job, "counting rows")
        counts = {**postgres.row_counts(snapshot_conn), **dict.fromkeys(unarchived_tables(), 0)}
        migrations = postgres.applied_migrations(snapshot_conn)
        job_step(job, "dumping the database")
        _run_pg_dump(pg_dump, snapshot, archive, job)
    job_step(job, "computing the checksum")
    _, server_version = postgres.server_version()
    manifest = {
        "format": MANIFEST_FORMAT,
        "id": backup.id,
        "kind": backup.kind,
        "created_at": backup.created_at.isoformat(),
        "created_by": backup.created_by_name,
        "archive": archive.name,
        "size_bytes": archive.stat().st_size,
        "sha256": archives.sha256_of(archive),
        "product_version": helixsite.__version__,
        "server_version": server_version,
        "migrations": migrations,
        "row_counts": counts,
        "rows_left_out": list(unarchived_tables()),
    }
    archives.manifest_write(backup.id, manifest)
    return manifest


def _run_pg_dump(pg_dump: Path, snapshot: str, archive: Path, job: VaultJob | None) -> None:
    written = archives.partial(archive)
    archives.private_file(written)
    command = [str(pg_dump), "--format=custom", "--no-password", f"--snapshot={snapshot}", f"--file={written}"]
    command += [f"--exclude-table-data={table}" for table in unarchived_tables()]
    deadline = time.monotonic() + settings.HELIX_BACKUP_TIMEOUT
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, env=postgres.tool_env(), stdout=subprocess.DEVNULL, stderr=errors)
        while True:
            try:
                process.wait(timeout=1)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    process.kill()
                    process.wait()
                    raise BackupFailed(
                        f"pg_dump ran longer than HELIX_BACKUP_TIMEOUT ({settings.HELIX_BACKUP_TIMEOUT}s)"
                    ) from None
                with contextlib.suppress(OSError):
                    job_step(job, "dumping the database", progress_bytes=written.stat().st_size)
        errors.seek(0)
        message = errors.read(4000).decode(errors="replace").strip()
    if process.returncode != 0:
        raise BackupFailed(f"pg_dump failed (exit {process.returncode}): {message}")
    written.replace(archive)


def _failed(backup: Backup, error: str) -> None:
    Backup.objects.filter(pk=backup.pk).update(status=Backup.Status.FAILED, finished_at=timezone.now(), error=error)
    if backup.kind != Backup.Kind.SCHEDULED:
        return
    admins = list(get_user_model().objects.filter(is_active=True, principal__is_global_admin=True))
    Notice.objects.address(
        kind=NoticeKind.OPS_ALERT,
        subject=f"backup:{backup.id}",
        recipients=admins,
        payload={
            "alert": "backup_failed",
            "backup_id": backup.id,
            "error": error[:1000],
            "message": f"The scheduled backup {backup.id} failed; there is no fresh backup. Tell the operator.",
        },
    )

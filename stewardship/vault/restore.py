"""Restoring a backup of the embedded database: restore into a new database, then switch.

1. Mark the restore as running (every web worker refuses writes with 503 meanwhile).
2. Take a safety backup of the database as it is.
3. Restore the archive into a new database beside it (one transaction), and migrate that one
   forward if the archive comes from older code.
4. Switch: refuse new connections to the live database, end every session on it (web workers,
   queue workers, MCP servers), rename it aside and give the restored one its name. Every
   process's next connection, by name, reaches the restored data.
5. Rebuild the catalogue from the vault on disk, record the job and its audit line in the
   restored database, drop the old one, and tell every process to forget its cached content-type
   ids.

Some records outlive every restore. Just before the switch, into the restored database:

- the audit trail is carried whole from the live one (the trail is append-only: a restore never
  takes a line away, the lines of the erasures and config changes since the backup included);
- the ledger of erasures is honoured (``manage.py erasure_ledger --reapply``, in a process whose
  settings name the restored database): every owner erased since the backup is erased again, and
  the restore's result and audit line say who;
- the live cache is carried over: no archive holds the database cache, the running processes'
  state, so a worker's heartbeat is never one from the backup's time. No archive holds the room's
  sessions either, and none is carried: every session ends with a restore.

Until the switch the live database is never touched, so any failure before it leaves the
installation as the safety backup found it; a switch that fails half-way renames the old
database back."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from psycopg import sql

from helixsite import embedded_db
from helixsite.data_dir import backup_dir
from helixsite.errors import Conflict
from helixsite.restore_marker import restore_abandoned, restore_begin, restore_end
from memory.erasure.ledger import ledger_export
from stewardship.models import AuditEntry
from stewardship.vault import archives, postgres
from stewardship.vault.catalogue import catalogue_reconcile
from stewardship.vault.dump import backup_take, unarchived_tables
from stewardship.vault.jobs import job_finish, job_step
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.verify import restore_into, scratch_name, scratch_of

logger = logging.getLogger("helixsite.vault")
SESSIONS_GONE_SECONDS = 30.0


class RestoreFailed(Exception):
    pass


def restore_refusal(manifest: dict[str, Any]) -> Conflict | None:
    """Why this installation cannot restore the archive, or None."""
    if not embedded_db.uses_embedded():
        return Conflict(
            "Restore is offered for the embedded database only. For an external DATABASE_URL, stop every "
            "Helixsite process, restore the archive with pg_restore --clean into your database (or into a new "
            "one you then point DATABASE_URL at), run manage.py migrate, and start again.",
            code="restore_unavailable",
        )
    newer = sorted(set(manifest.get("migrations", [])) - code_migrations())
    if newer:
        return Conflict(
            f"The archive comes from newer code: {len(newer)} of its migrations are unknown here "
            f"(first: {newer[0]}). Upgrade Helixsite before restoring it.",
            code="archive_newer",
            field="backup_id",
        )
    return None


def code_migrations() -> set[str]:
    return {f"{app}.{name}" for app, name in MigrationLoader(None, ignore_no_migrations=True).graph.nodes}


def restore_job(*, job: VaultJob) -> None:
    backup = Backup.objects.get(pk=job.backup_id)
    manifest = archives.manifest_read(backup.id) or backup.manifest
    restore_begin(job_id=str(job.id))
    safety: Backup | None = None
    try:
        safety = _prepare(job, backup, manifest)
        live = postgres.database_name()
        scratch = _restored_copy(job, backup, manifest)
        try:
            job_step(job, "carrying the audit trail over")
            carried = _carry_audit_trail(live, scratch)
            job_step(job, "erasing again the owners erased since the backup")
            reapplied = _reapply_erasures(job, backup, scratch)
            job_step(job, "switching to the restored database")
            _carry_process_state(live, scratch)
            old = _switch(live, scratch)
        except BaseException:
            postgres.database_drop(scratch)
            raise
    except Exception as exc:
        logger.exception("restore of %s failed; the database is left as it was", backup.id)
        restore_end(restored=False)
        connections.close_all()
        result = {"safety_backup": safety.id if safety else None, "rolled_back": True}
        job_finish(job, error=f"{exc} — nothing was changed.", result=result)
        return
    connections.close_all()
    outcome = {
        "safety_backup": safety.id if safety else None,
        "restored": backup.id,
        "audit_lines_carried": carried,
        "erasures_reapplied": reapplied,
    }
    _settle(job, backup, outcome, old)
    restore_end(restored=True)


def _prepare(job: VaultJob, backup: Backup, manifest: dict[str, Any]) -> Backup:
    job_step(job, "checking the archive")
    archive = archives.archive_path(backup.id)
    if not archive.is_file() or archives.sha256_of(archive) != manifest.get("sha256"):
        raise RestoreFailed("The archive is missing or its checksum differs from the manifest.")
    refusal = restore_refusal(manifest)
    if refusal is not None:
        raise RestoreFailed(refusal.message)
    job_step(job, "taking a safety backup")
    now = timezone.now()
    safety = Backup.objects.create(
        id=archives.new_id(now),
        kind=Backup.Kind.SAFETY,
        created_at=now,
        created_by=job.actor,
        created_by_name=job.actor_name,
    )
    return backup_take(backup=safety, job=job)


def _restored_copy(job: VaultJob, backup: Backup, manifest: dict[str, Any]) -> str:
    job_step(job, "restoring into a new database")
    scratch = scratch_name("restore")
    try:
        problem = restore_into(archives.archive_path(backup.id), scratch)
        if problem:
            raise RestoreFailed(problem)
        if set(manifest.get("migrations", [])) != code_migrations():
            job_step(job, "migrating the restored database forward")
            _migrate(scratch)
    except BaseException:
        postgres.database_drop(scratch)
        raise
    return scratch


def _migrate(database: str) -> None:
    """``manage.py migrate`` on the restored database, in a process of its own whose settings name it."""
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "migrate", "--noinput"]
    answer = subprocess.run(
        command,
        env=_restored_env(database),
        capture_output=True,
        text=True,
        timeout=settings.HELIX_BACKUP_TIMEOUT,
        check=False,
    )
    if answer.returncode != 0:
        raise RestoreFailed(f"migrating the restored database failed: {answer.stderr.strip()[-1000:]}")


def _switch(live: str, restored: str) -> str:
    """Give ``restored`` the live database's name; the old one gets a name aside, returned."""
    aside = scratch_name(embedded_db.MOVED_ASIDE)
    connections.close_all()
    with postgres.connect(dbname="postgres") as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS false").format(sql.Identifier(live)))
        try:
            _end_sessions(conn, live)
            conn.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(live), sql.Identifier(aside)))
        except Exception:
            conn.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true").format(sql.Identifier(live)))
            raise
        try:
            conn.execute(
                sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(restored), sql.Identifier(live))
            )
        except Exception:
            conn.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(aside), sql.Identifier(live)))
            conn.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true").format(sql.Identifier(live)))
            raise
    return aside


def _end_sessions(conn: Any, database: str) -> None:
    deadline = time.monotonic() + SESSIONS_GONE_SECONDS
    while True:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )
        left = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]).fetchone()[0]
        if not left:
            return
        if time.monotonic() > deadline:
            raise RestoreFailed(f"{left} sessions on the database did not end")
        time.sleep(0.2)


def _carry_audit_trail(live: str, restored: str) -> int:
    """The live audit trail, whole, in place of the backup's (an older prefix of it, or, after
    an erasure, one still quoting what the live trail redacted); its lines count. A line whose
    actor the restored database does not know keeps the actor's name, without the link."""
    table = AuditEntry._meta.db_table
    users = get_user_model()._meta.db_table
    columns = [f.column for f in AuditEntry._meta.concrete_fields]
    names = sql.SQL(", ").join(map(sql.Identifier, columns))
    chosen = sql.SQL(", ").join(
        sql.SQL("CASE WHEN EXISTS (SELECT 1 FROM {} u WHERE u.id = c.actor_id) THEN c.actor_id END").format(
            sql.Identifier(users)
        )
        if column == "actor_id"
        else sql.Identifier(column)
        for column in columns
    )
    with postgres.connect(dbname=live) as source, postgres.connect(dbname=restored, autocommit=False) as target:
        target.execute(sql.SQL("CREATE TEMP TABLE carried (LIKE {})").format(sql.Identifier(table)))
        copy_out = sql.SQL("COPY (SELECT {} FROM {}) TO STDOUT").format(names, sql.Identifier(table))
        copy_in = sql.SQL("COPY carried ({}) FROM STDIN").format(names)
        with source.cursor().copy(copy_out) as rows_out, target.cursor().copy(copy_in) as rows_in:
            for data in rows_out:
                rows_in.write(data)
        target.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(table)))
        insert = sql.SQL("INSERT INTO {} ({}) SELECT {} FROM carried c").format(sql.Identifier(table), names, chosen)
        count = target.execute(insert).rowcount
        target.execute(
            sql.SQL(
                "SELECT setval(pg_get_serial_sequence({}, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM {}), false)"
            ).format(sql.Literal(table), sql.Identifier(table))
        )
        target.commit()
    return count


def _reapply_erasures(job: VaultJob, backup: Backup, restored: str) -> list[dict[str, Any]]:
    """Every erasure of the live ledger that the restored database does not hold, made again
    there by ``manage.py erasure_ledger --reapply`` in a process whose settings name it."""
    entries = [entry.as_dict() for entry in ledger_export()]
    if not entries:
        return []
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=backup_dir(), delete=False) as handle:
        json.dump(entries, handle)
    ledger = Path(handle.name)
    try:
        command = [
            sys.executable, str(settings.BASE_DIR / "manage.py"), "erasure_ledger", "--reapply", str(ledger),
            "--because", f"restore of backup {backup.id}", "--actor", job.actor_name or "restore", "--json",
        ]  # fmt: skip
        answer = subprocess.run(
            command, env=_restored_env(restored), capture_output=True, text=True,
            timeout=settings.HELIX_BACKUP_TIMEOUT, check=False,
        )  # fmt: skip
    finally:
        ledger.unlink(missing_ok=True)
    if answer.returncode != 0:
        raise RestoreFailed(f"erasing again the owners erased since the backup failed: {answer.stderr.strip()[-1000:]}")
    done = json.loads(answer.stdout.strip().splitlines()[-1])
    if not all(again["passed"] for again in done):
        raise RestoreFailed("an erasure made again did not pass its check; the restore was not made")
    return [{k: again[k] for k in ("user_id", "workspace", "erased_at", "rows_erased_again")} for again in done]


def _restored_env(database: str) -> dict[str, str]:
    return {**os.environ, "HELIX_DB_NAME": database, "HELIX_DB_POOL": "false"}


def _carry_process_state(live: str, restored: str) -> None:
    """The running processes' own rows, which no archive holds (``unarchived_tables``: the
    database cache with the workers' heartbeats), copied from the live database into the restored
    one just before the switch: a worker that kept running is seen as running, never as a dead
    heartbeat from the backup's time."""
    for table in unarchived_tables():
        if table == "django_session":
            continue  # every session ends with the restore
        select = sql.SQL("SELECT * FROM {}").format(sql.Identifier(table))
        with postgres.connect(dbname=live) as source, postgres.connect(dbname=restored) as target:
            rows = source.execute(select).fetchall()
            if rows:
                width = len(rows[0])
                insert = sql.SQL("INSERT INTO {} VALUES ({}) ON CONFLICT DO NOTHING").format(
                    sql.Identifier(table), sql.SQL(", ").join([sql.Placeholder()] * width)
                )
                target.cursor().executemany(insert, rows)


def restore_recover() -> list[str]:
    """What a restore whose process was killed left behind, put right; what was done, said.

    Killed before the switch, it never touched the live database: the restored copy beside it is
    dropped. Killed during the switch, the live database may refuse connections or have been moved
    aside with no database of its name: it gets its name and its connections back. Killed after,
    the restored database serves and the one moved aside is dropped (the safety backup holds it).
    The marker goes, and the job is marked failed (after the switch: succeeded, its result unknown)."""
    marker = restore_abandoned()
    if marker is None:
        return []
    done = []
    live = postgres.database_name()
    with postgres.connect(dbname="postgres") as conn:
        names = [row[0] for row in conn.execute("SELECT datname FROM pg_database").fetchall()]
        aside = [name for name in names if scratch_of(name, embedded_db.MOVED_ASIDE)]
        switched = live in names
        if not switched and aside:
            conn.execute(
                sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(aside[0]), sql.Identifier(live))
            )
            done.append(f"the database moved aside ({aside.pop(0)}) has its name back")
        conn.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true").format(sql.Identifier(live)))
    for name in [n for n in names if scratch_of(n, "restore")] + aside:
        postgres.database_drop(name)
        done.append(f"dropped {name}, left by the interrupted restore")
    restore_end(restored=False)
    outcome = "succeeded" if switched and aside else "failed"
    VaultJob.objects.unfinished().filter(kind=VaultJob.Kind.RESTORE).update(
        status=outcome,
        finished_at=timezone.now(),
        step="done",
        error="" if outcome == "succeeded" else "The restore was interrupted; nothing was changed.",
    )
    catalogue_reconcile()
    logger.warning("an interrupted restore was put right: %s", "; ".join(done) or "nothing was left behind")
    return done


def _settle(job: VaultJob, backup: Backup, outcome: dict[str, Any], aside: str) -> None:
    """After the switch the restore has happened: what follows is tidying, and its failures are logged."""
    steps = (
        ("reconciling the catalogue", catalogue_reconcile),
        ("recording the job", lambda: _record(job, backup, outcome)),
        ("dropping the old database", lambda: postgres.database_drop(aside)),
    )
    for what, step in steps:
        try:
            step()
        except Exception:
            logger.exception("after restoring %s: %s failed", backup.id, what)


def _record(job: VaultJob, backup: Backup, result: dict[str, Any]) -> None:
    """The job and its outcome's audit line, written in the restored database (the old one is gone)."""
    actor = get_user_model().objects.filter(pk=job.actor_id).first() if job.actor_id else None
    VaultJob.objects.update_or_create(
        pk=job.pk,
        defaults={
            "kind": job.kind,
            "backup_id": job.backup_id,
            "actor": actor,
            "actor_name": job.actor_name,
            "status": VaultJob.Status.SUCCEEDED,
            "step": "done",
            "created_at": job.created_at,
            "started_at": job.started_at,
            "finished_at": timezone.now(),
            "result": result,
            "error": "",
        },
    )
    AuditEntry.objects.create(
        actor=actor, actor_name=job.actor_name, action="backup.restored", target=f"backup:{backup.id}", after=result
    )

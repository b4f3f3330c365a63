"""Checking a backup three ways: its checksum, the archive's table of contents, and a test
restore into a scratch database whose row counts must equal the manifest's. The scratch
database is dropped whatever happens."""

from __future__ import annotations

import re
import secrets
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from helixsite.embedded_db import scratch_stem
from stewardship.vault import archives, postgres
from stewardship.vault.jobs import job_step
from stewardship.vault.models import Backup, VaultJob

_TABLE_DATA = re.compile(r"^\d+; \d+ \d+ TABLE DATA (\S+) (\S+) ")


def backup_verify(*, backup: Backup, job: VaultJob | None) -> dict[str, Any]:
    """The report (``ok`` and one entry per check), also kept on the backup's row and in its manifest."""
    archive = archives.archive_path(backup.id)
    manifest = archives.manifest_read(backup.id) or backup.manifest
    report: dict[str, Any] = {}
    job_step(job, "comparing the checksum")
    report["checksum"] = _checksum(archive, manifest)
    if report["checksum"]["ok"]:
        job_step(job, "reading the table of contents")
        report["contents"] = _contents(archive, manifest)
    if report.get("contents", {}).get("ok"):
        job_step(job, "restoring into a scratch database")
        report["test_restore"] = _test_restore(archive, manifest)
    report["ok"] = all(report.get(name, {}).get("ok") for name in ("checksum", "contents", "test_restore"))
    now = timezone.now()
    Backup.objects.filter(pk=backup.pk).update(verified_at=now, verify_ok=report["ok"], verify_report=report)
    _keep_in_manifest(backup.id, {"at": now.isoformat(), "ok": report["ok"], "report": report})
    return report


def _keep_in_manifest(backup_id: str, verification: dict[str, Any]) -> None:
    """The outcome, in the manifest on disk too: a restore replaces the catalogue's rows with the
    archive's older ones, and the catalogue rebuilt from the files then still knows it."""
    manifest = archives.manifest_read(backup_id)
    if manifest is not None:
        archives.manifest_write(backup_id, {**manifest, "verification": verification})


def verify_problem(report: dict[str, Any]) -> str:
    for name in ("checksum", "contents", "test_restore"):
        if name in report and not report[name]["ok"]:
            return f"{name.replace('_', ' ')}: {report[name]['detail']}"
    return ""


def _checksum(archive: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    if not archive.is_file():
        return {"ok": False, "detail": "the archive is missing from the vault"}
    found = archives.sha256_of(archive)
    if found != manifest.get("sha256"):
        return {"ok": False, "detail": f"sha256 is {found}, the manifest says {manifest.get('sha256')}"}
    return {"ok": True, "detail": f"sha256 {found}"}


def _contents(archive: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    answer = _pg_restore(["--list", str(archive)], dbname=None)
    if answer.returncode != 0:
        return {"ok": False, "detail": f"pg_restore cannot read it: {answer.stderr.strip()[:500]}"}
    tables = {m.group(2) for line in answer.stdout.splitlines() if (m := _TABLE_DATA.match(line))}
    # A table whose rows no archive holds (the manifest's rows_left_out) has no data entry.
    missing = sorted(set(manifest.get("row_counts", {})) - tables - set(manifest.get("rows_left_out", [])))
    if missing:
        return {"ok": False, "detail": f"tables missing from the archive: {', '.join(missing[:20])}"}
    return {"ok": True, "detail": f"{len(answer.stdout.splitlines())} entries, {len(tables)} tables with data"}


def _test_restore(archive: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    scratch = scratch_name("verify")
    try:
        problem = restore_into(archive, scratch)
        if problem:
            return {"ok": False, "detail": problem}
        with postgres.connect(dbname=scratch) as conn:
            counts = postgres.row_counts(conn)
    finally:
        postgres.database_drop(scratch)
    expected = manifest.get("row_counts", {})
    differing = {t: {"manifest": n, "restored": counts.get(t)} for t, n in expected.items() if counts.get(t) != n}
    if differing:
        return {"ok": False, "detail": f"row counts differ in {len(differing)} tables", "differing": differing}
    return {"ok": True, "detail": f"{len(counts)} tables, {sum(counts.values())} rows, as in the manifest"}


def scratch_name(purpose: str) -> str:
    """A new database's name beside the application's."""
    return scratch_stem(postgres.database_name(), purpose) + secrets.token_hex(4)


def scratch_of(name: str, purpose: str) -> bool:
    """Whether ``name`` is one ``scratch_name(purpose)`` gives."""
    tail = name.removeprefix(scratch_stem(postgres.database_name(), purpose))
    return tail != name and len(tail) == 8 and all(c in "0123456789abcdef" for c in tail)


def restore_into(archive: Path, database: str) -> str:
    """Create ``database`` and restore ``archive`` into it in one transaction; the problem, or ''."""
    postgres.database_create(database)
    answer = _pg_restore(
        ["--no-owner", "--exit-on-error", "--single-transaction", f"--dbname={database}", str(archive)],
        dbname=database,
    )
    if answer.returncode != 0:
        return f"pg_restore failed (exit {answer.returncode}): {answer.stderr.strip()[:1000]}"
    return ""


def _pg_restore(arguments: list[str], *, dbname: str | None) -> subprocess.CompletedProcess[str]:
    command = [str(postgres.tool("pg_restore")), "--no-password", *arguments]
    return subprocess.run(
        command,
        env=postgres.tool_env(dbname=dbname),
        capture_output=True,
        text=True,
        timeout=settings.HELIX_BACKUP_TIMEOUT,
        check=False,
    )

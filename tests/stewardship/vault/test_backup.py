"""Taking a backup: a pg_dump archive and its manifest, taken by the worker for the room or at
once by ``manage.py backup``; a failure leaves no file and says why."""

from __future__ import annotations

import io
import json
import stat
import subprocess

import pytest
from django.core.management import CommandError, call_command

import helixsite
from memory.models import Memory
from memory.outbox.models import Notice
from stewardship.models import AuditEntry
from stewardship.vault import archives, postgres
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.services import backup_now, backup_request
from tests.factories import make_principal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_manage_py_backup_writes_an_archive_and_its_manifest(vault_in_tmp):
    make_principal("scout")
    out = io.StringIO()

    call_command("backup", stdout=out)

    backup = Backup.objects.get()
    assert out.getvalue().startswith(f"backup {backup.id}: {backup.size_bytes} bytes, sha256 {backup.sha256}")
    archive, manifest_file = vault_in_tmp / f"{backup.id}.dump", vault_in_tmp / f"{backup.id}.json"
    manifest = json.loads(manifest_file.read_text())
    assert manifest["id"] == backup.id and manifest["kind"] == "manual"
    assert manifest["size_bytes"] == archive.stat().st_size == backup.size_bytes
    assert manifest["sha256"] == archives.sha256_of(archive) == backup.sha256
    assert "vault.0002_backup_schedule" in manifest["migrations"]
    assert manifest["product_version"] == helixsite.__version__
    assert manifest["row_counts"]["auth_user"] == 1
    assert manifest["row_counts"][Memory._meta.db_table] == 0
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600 and stat.S_IMODE(vault_in_tmp.stat().st_mode) == 0o700
    listed = subprocess.run(
        [str(postgres.tool("pg_restore")), "--list", str(archive)], capture_output=True, text=True, check=True
    )
    assert "TABLE DATA public auth_user" in listed.stdout


def test_a_backup_asked_for_in_the_room_runs_as_a_job_and_is_audited(ada):
    job = backup_request(actor=ada.user)  # the test settings run the worker's task inline, after commit

    job.refresh_from_db()
    backup = Backup.objects.get(pk=job.backup_id)
    assert (job.status, job.step, job.error) == ("succeeded", "done", "")
    assert job.result == {"size_bytes": backup.size_bytes, "sha256": backup.sha256}
    assert (backup.status, backup.created_by_name, backup.manifest["created_by"]) == ("ready", "ada", "ada")
    assert AuditEntry.objects.get(action="backup.create").target == f"backup:{backup.id}"


def test_a_failed_dump_leaves_no_file_and_says_why(vault_in_tmp, monkeypatch, tmp_path):
    failing = tmp_path / "pg_dump"
    failing.write_text("#!/bin/sh\necho 'pg_dump: error: connection refused' >&2\nexit 1\n")
    failing.chmod(0o755)
    monkeypatch.setattr(postgres, "tool", lambda name: failing)

    with pytest.raises(CommandError, match="pg_dump failed \\(exit 1\\): pg_dump: error: connection refused"):
        call_command("backup", stdout=io.StringIO())

    backup = Backup.objects.get()
    assert backup.status == "failed" and "connection refused" in backup.error
    assert VaultJob.objects.get().status == "failed"
    assert [p.name for p in vault_in_tmp.iterdir()] == []


def test_a_failed_scheduled_backup_alerts_every_global_admin(ada, monkeypatch):
    monkeypatch.setattr(postgres, "tool", lambda name: (_ for _ in ()).throw(postgres.ToolUnavailable("no pg_dump")))

    backup = backup_now(kind=Backup.Kind.SCHEDULED)

    assert backup.status == "failed"
    notice = Notice.objects.get()
    assert (notice.kind, notice.recipient.username, notice.subject) == ("ops_alert", "ada", f"backup:{backup.id}")
    assert notice.payload["alert"] == "backup_failed" and "no pg_dump" in notice.payload["error"]


def test_an_external_database_needs_a_pg_dump_of_the_servers_major_version(monkeypatch, tmp_path):
    old = tmp_path / "pg_dump"
    old.write_text("#!/bin/sh\necho 'pg_dump (PostgreSQL) 15.18'\n")
    old.chmod(0o755)
    monkeypatch.setattr(postgres.embedded_db, "uses_embedded", lambda: False)
    monkeypatch.setattr(postgres.shutil, "which", lambda name: str(old))
    major, _ = postgres.server_version()

    with pytest.raises(
        postgres.ToolUnavailable, match=f"pg_dump on PATH is PostgreSQL 15, the database is PostgreSQL {major}"
    ):
        postgres.tool("pg_dump")
    monkeypatch.setattr(postgres.shutil, "which", lambda name: None)
    with pytest.raises(postgres.ToolUnavailable, match="No pg_dump on PATH"):
        postgres.tool("pg_dump")


def test_one_vault_job_at_a_time(ada):
    VaultJob.objects.create(kind="verify", backup_id="20260101-000000-abcd", status="running")

    with pytest.raises(Exception, match="A verify of 20260101-000000-abcd is under way") as refused:
        backup_request(actor=ada.user)

    assert refused.value.code == "vault_busy" and refused.value.status == 409
    assert not Backup.objects.exists()

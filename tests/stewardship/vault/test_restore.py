"""Restore: the round trip (what a backup holds comes back byte for byte in the fields that
matter, and search answers as before), an archive from older code migrated forward, and any
failure leaving the database as it was, with its safety backup in the vault."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client
from django.utils import timezone
from django_q.models import Schedule

from helixsite import embedded_db, restore_marker
from helixsite.db.outage import is_unreachable
from memory.fastthink.models import ThinkSession, Thought
from memory.models import Edge, Memory, MemoryHistory
from memory.outbox.models import PendingInput
from rbac.models import ApiToken, Role, Workspace
from stewardship.models import AuditEntry
from stewardship.vault import archives, postgres
from stewardship.vault import restore as restore_module
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.services import backup_now, restore_request
from stewardship.vault.verify import backup_verify, scratch_name
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MATTERS: dict[type, tuple[str, ...]] = {
    Memory: (
        "id",
        "content",
        "content_key",
        "embedding",
        "user_id",
        "rbac_scope",
        "valid_to",
        "deleted_at",
        "metadata",
    ),
    Edge: ("id", "source_id", "target_id", "edge_type", "confidence", "reason", "expired_at"),
    MemoryHistory: ("id", "memory_id", "action", "old_content", "new_content", "actor_id"),
    ApiToken: ("id", "user_id", "name", "revoked_at"),
    PendingInput: ("id", "creator_id", "status", "payload", "rbac_scope"),
    ThinkSession: ("id", "actor_id", "session_id", "state", "thought_count"),
    Thought: ("id", "session_id", "idx", "thought_type", "content"),
}


def _snapshot() -> dict[str, list[tuple]]:
    def row(values: dict[str, Any]) -> tuple:
        return tuple(v.tolist() if hasattr(v, "tolist") else v for v in values.values())

    taken = {model.__name__: [row(v) for v in model.objects.order_by("pk").values(*f)] for model, f in MATTERS.items()}
    taken["token hashes"] = sorted(ApiToken.objects.values_list(*_token_secret_fields()))
    return taken


def _token_secret_fields() -> list[str]:
    return [f.name for f in ApiToken._meta.concrete_fields if f.name in {"key_hash", "digest", "token_hash", "prefix"}]


def _search(api) -> list[tuple[str, str]]:
    answer = api.post(
        "/api/v1/search_memory", {"actor_id": "writer", "user_id": "bob", "query": "Osaka ramen"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return [(r["memory_id"] if "memory_id" in r else r["id"], r["content"]) for r in answer.json()["results"]]


def _add(api, message: str) -> list[str]:
    answer = api.post("/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": message}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["memory_ids"]


@pytest.fixture
def world(ada):
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    first = _add(api, "Bob loves the ramen shop near Osaka station.")[0]
    second = _add(api, "Bob is allergic to peanuts.")[0]
    Edge.objects.create(
        source_id=first, target_id=second, edge_type="RELATES_TO", reason="test", created_by=writer.user
    )
    MemoryHistory.objects.create(
        memory_id=first, action="update", old_content="old", new_content="new", actor=writer.user
    )
    PendingInput.objects.create(
        creator=writer.user,
        user_id="bob",
        workspace=Workspace.objects.get(slug="team"),
        rbac_scope="rbac:group:1",
        payload={"message": "later"},
    )
    session = ThinkSession.objects.create(
        actor=writer.user,
        session_id="s1",
        max_thoughts=10,
        max_seconds=60,
        deadline_at=timezone.now() + timedelta(minutes=1),
        thought_count=1,
    )
    Thought.objects.create(session=session, idx=0, thought_type="observation", content="Bob likes ramen")
    return {"api": api, "writer": writer, "token": issued.token}


def test_a_restore_brings_back_everything_the_backup_held_and_search_answers_as_before(ada, world):
    api = world["api"]
    answered = _search(api)
    assert len(answered) == 2
    before = _snapshot()
    backup = backup_now(actor=ada.user)

    later = _add(api, "Bob moved to Sapporo and eats miso ramen in Osaka style.")
    Edge.objects.all().delete()
    ApiToken.objects.filter(pk=world["token"].pk).update(revoked_at=timezone.now())
    PendingInput.objects.update(status="done")
    ThinkSession.objects.all().delete()
    assert _snapshot() != before

    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")

    job = VaultJob.objects.get(pk=job.pk)  # recorded again in the restored database
    assert (job.status, job.error) == ("succeeded", ""), job.error
    assert _snapshot() == before
    assert not Memory.objects.filter(pk__in=later).exists()
    assert _search(api) == answered
    safety = Backup.objects.get(pk=job.result["safety_backup"])
    assert safety.kind == "safety" and safety.ready, "the safety backup is in the rebuilt catalogue"
    assert Backup.objects.get(pk=backup.id).ready
    assert AuditEntry.objects.filter(action="backup.restore", target=f"backup:{backup.id}").exists()
    assert restore_marker.restore_running() is None
    assert _leftover_databases() == []


def _leftover_databases() -> list[str]:
    with postgres.connect(dbname="postgres") as conn:
        rows = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", [connection.settings_dict["NAME"] + "_%"]
        )
        return [row[0] for row in rows.fetchall()]


def test_a_failure_before_the_switch_leaves_the_database_as_it_was(ada, world, monkeypatch):
    backup = backup_now(actor=ada.user)
    later = _add(world["api"], "Bob now prefers udon.")
    monkeypatch.setattr(restore_module, "_switch", _failing_switch)

    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")

    job.refresh_from_db()
    assert job.status == "failed" and job.error == "the switch broke — nothing was changed."
    assert Memory.objects.filter(pk__in=later).exists(), "the live database was never touched"
    assert Backup.objects.get(pk=job.result["safety_backup"]).ready
    assert restore_marker.restore_running() is None
    assert _leftover_databases() == []


def _failing_switch(live: str, restored: str) -> str:
    postgres.database_drop(restored)
    raise restore_module.RestoreFailed("the switch broke")


def test_a_failed_switch_renames_the_old_database_back(ada, world, monkeypatch):
    backup = backup_now(actor=ada.user)
    later = _add(world["api"], "Bob now prefers soba.")
    original_switch = restore_module._switch
    # The second rename fails (no database has that name) after the first one moved the live one aside.
    monkeypatch.setattr(restore_module, "_switch", lambda live, restored: original_switch(live, restored + "_gone"))

    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")

    job.refresh_from_db()
    assert job.status == "failed" and job.error.endswith("nothing was changed.")
    assert Memory.objects.filter(pk__in=later).exists()
    assert _leftover_databases() == [], "neither the restored copy nor an old database is left behind"


def test_an_archive_from_older_code_is_migrated_forward(ada):
    call_command("migrate", "vault", "0001", verbosity=0)  # the code of before the schedule
    try:
        assert not Schedule.objects.filter(name="vault scheduled backups").exists()
        backup = backup_now(actor=ada.user)
        assert "vault.0002_backup_schedule" not in backup.manifest["migrations"]
    finally:
        call_command("migrate", "vault", verbosity=0)

    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")

    job = VaultJob.objects.get(pk=job.pk)
    assert (job.status, job.error) == ("succeeded", ""), job.error
    assert Schedule.objects.filter(name="vault scheduled backups").exists(), "migrated forward"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM django_migrations WHERE app = 'vault' AND name = '0002_backup_schedule'")
        assert cursor.fetchone() is not None
    assert _leftover_databases() == []


def test_a_database_refusing_connections_for_a_switch_counts_as_unreachable(transactional_db):
    aside = "vault_outage_probe"
    postgres.database_drop(aside)
    postgres.database_create(aside)
    try:
        with postgres.connect(dbname="postgres") as conn:
            conn.execute(f'ALTER DATABASE "{aside}" WITH ALLOW_CONNECTIONS false')
        with pytest.raises(psycopg.OperationalError) as refused:
            psycopg.connect(**postgres.server_params(dbname=aside)).close()
        assert is_unreachable(refused.value)
        with pytest.raises(psycopg.OperationalError) as missing:
            psycopg.connect(**postgres.server_params(dbname=aside + "_missing")).close()
        assert is_unreachable(missing.value)
    finally:
        postgres.database_drop(aside)


def test_a_process_forgets_what_it_cached_of_the_old_database_once_a_restore_is_done(transactional_db):
    ContentType.objects.get_for_model(Memory)  # cached now

    restore_marker.restore_end(restored=True)

    assert ContentType.objects._cache == {}


def _archived_rows(backup: Backup, table: str) -> str:
    """What the archive holds of ``table``'s rows, as pg_restore would write them."""
    pg_restore = postgres.tool("pg_restore")
    dumped = subprocess.run(
        [str(pg_restore), "--data-only", f"--table={table}", "--file=-", str(archives.archive_path(backup.id))],
        env=postgres.tool_env(), capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dumped.stdout


def test_no_archive_holds_a_session_and_a_restore_ends_every_session(ada, world):
    room = Client()
    room.force_login(ada.user)
    assert room.get("/steward/").status_code == 200
    key = room.cookies["sessionid"].value
    cache.set("heartbeat-like", "kept by the running processes")
    backup = backup_now(actor=ada.user)

    assert key not in _archived_rows(backup, "django_session")
    assert "heartbeat-like" not in _archived_rows(backup, "helix_cache")
    assert backup.manifest["rows_left_out"] == ["django_session", "helix_cache"]
    assert backup.manifest["row_counts"]["django_session"] == 0
    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")

    assert VaultJob.objects.get(pk=job.pk).status == "succeeded"
    stale = Client()
    stale.cookies["sessionid"] = key
    assert stale.get("/steward/").status_code == 302, "a session from before the restore opens nothing"
    assert cache.get("heartbeat-like") == "kept by the running processes", "the live cache was carried over"
    report = backup_verify(backup=backup, job=None)
    assert report["ok"], report


def test_a_restore_killed_during_its_switch_gives_the_live_database_its_name_back(ada, vault_in_tmp):
    """Killed between moving the live database aside and naming the restored one: no process
    creates an empty database under the live name meanwhile, and the next vault action gives
    the one moved aside its name and its connections back."""
    make_workspace("kept")
    dead = subprocess.Popen([sys.executable, "-c", ""])
    dead.wait()
    restore_marker.restore_begin(job_id="interrupted")
    marker = restore_marker._path(restore_marker.RUNNING_FILE)
    marker.write_text(json.dumps({"job": "interrupted", "pid": dead.pid, "since": 0}))
    live, aside = postgres.database_name(), scratch_name(embedded_db.MOVED_ASIDE)
    params = {k: v for k, v in postgres.server_params().items() if k != "dbname"}
    connections.close_all()
    with postgres.connect(dbname="postgres") as conn:
        conn.execute(f'ALTER DATABASE "{live}" WITH ALLOW_CONNECTIONS false')
        conn.execute(f'ALTER DATABASE "{live}" RENAME TO "{aside}"')
    embedded_db._create_database(params, live)  # a process starting now
    with postgres.connect(dbname="postgres") as conn:
        assert conn.execute("SELECT count(*) FROM pg_database WHERE datname = %s", [live]).fetchone()[0] == 0

    done = restore_module.restore_recover()

    assert done[0] == f"the database moved aside ({aside}) has its name back"
    assert Workspace.objects.filter(slug="kept").exists()
    assert restore_marker.restore_abandoned() is None and not marker.exists()
    assert _leftover_databases() == []

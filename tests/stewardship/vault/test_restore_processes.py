"""After a restore every running process serves the restored data: two web workers (pooled
connections to the old database, ended by the switch) and a django-q2 cluster (its broker's
connection ended too) reconnect by name to the restored database, with no restart.

Writes are buffered (HELIX_ADD_BUFFERED): the web answers "accepted" and the cluster writes, so
one write after the restore shows the cluster writing into the restored database. Embeddings
come from a stub endpoint on loopback: no process loads a model."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx2
import psutil
import pytest
from django.db import OperationalError, connections
from django.test import Client

from helixsite import restore_marker
from memory.models import Erasure, Memory
from rbac.models import Role, Workspace
from stewardship import erasure
from stewardship.models import AuditEntry
from stewardship.vault import postgres
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.services import backup_now, restore_request
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace
from tests.openai_compatible_server import OpenAICompatibleServer
from tests.processes import web_server, worker_cluster
from tests.reliability.test_buffered_writes import stub_embedding
from tests.stewardship.vault.test_restore import _leftover_databases

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
DEADLINE = 180.0


def _wait_for(predicate: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def test_after_a_restore_web_and_queue_workers_serve_the_restored_data(ada, vault_in_tmp):
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    headers = {"Authorization": f"Bearer {issued.raw}", "Connection": "close"}

    def call(tool: str, **arguments: Any) -> httpx2.Response:
        body = {"actor_id": "writer", **arguments}
        return httpx2.post(f"{base}/api/v1/{tool}", json=body, headers=headers, timeout=60)

    def written(message: str) -> str:
        accepted = call("add_memory", user_id="bob", message=message)
        assert accepted.status_code == 200, accepted.text
        pending = accepted.json()["pending_id"]
        status = _wait_for(
            lambda: (
                (a := call("get_add_status", pending_id=pending)).status_code == 200
                and a.json()["status"] in ("done", "failed")
                and a.json()
            ),
            f"the write {message!r}",
        )
        assert status["status"] == "done", status
        return status["result"]["memory_ids"][0]

    def listed() -> list[str] | None:
        answer = call("list_memories", user_id="bob")
        return sorted(m["content"] for m in answer.json()["memories"]) if answer.status_code == 200 else None

    with OpenAICompatibleServer() as stub:
        stub.queue("/v1/embeddings", *[stub_embedding] * 200)
        env = {
            "HELIX_ADD_BUFFERED": "true",
            "HELIX_EMBEDDINGS": "openai",
            "HELIX_EMBEDDING_BASE_URL": stub.base_url,
            "HELIX_BACKUP_DIR": str(vault_in_tmp),
        }
        with web_server(workers=2, **env) as base, worker_cluster(**env):
            kept = written("Bob keeps bees in the garden.")
            backup = backup_now(actor=ada.user)
            lost = written("Bob sold every hive to a neighbour.")
            assert listed() == ["Bob keeps bees in the garden.", "Bob sold every hive to a neighbour."]

            job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")

            # The running worker is seen running, with no restart: its heartbeat is carried into the
            # restored database, and its next one is written on a new connection. A heartbeat counts
            # for 3 s only and the switch ended the worker's connection, so on a busy machine the
            # carried one may have lapsed before the worker beats again: health is waited for.
            _wait_for(lambda: _health(base).status_code == 200, "health after the restore (worker failing?)")
            # Each request on a connection of its own, spread over both web workers.
            answers = [_wait_for(listed, "the web workers to answer") for _ in range(8)]
            assert answers == [["Bob keeps bees in the garden."]] * 8
            after = written("Bob bought a new hive.")
            assert listed() == ["Bob bought a new hive.", "Bob keeps bees in the garden."]

    assert set(Memory.objects.values_list("pk", flat=True)) == {_uuid(kept), _uuid(after)}
    assert not Memory.objects.filter(pk=_uuid(lost)).exists()
    assert job.kind == "restore"


def _uuid(value: str) -> uuid.UUID:
    return uuid.UUID(value)


def test_a_restore_asked_for_in_the_room_is_run_by_the_worker_cluster(ada, vault_in_tmp, monkeypatch):
    """The production path: the job is queued, a django-q2 worker process runs it, ending its own
    cluster's sessions with the old database on the way, and records the outcome in the new one."""
    backup = backup_now(actor=ada.user)
    make_workspace("after-the-backup")
    monkeypatch.setattr("django_q.conf.Conf.SYNC", False)  # queued for the cluster, not run here
    monkeypatch.setattr("stewardship.vault.services.restore_job", lambda **_: pytest.fail("ran in the test process"))

    with worker_cluster(HELIX_BACKUP_DIR=str(vault_in_tmp)):
        job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")
        finished = _wait_for(lambda: _status_of(job.pk) in ("succeeded", "failed"), "the restore job to end")

    assert finished
    job = VaultJob.objects.get(pk=job.pk)
    assert (job.status, job.error) == ("succeeded", ""), job.error
    assert not Workspace.objects.filter(slug="after-the-backup").exists()
    assert Backup.objects.get(pk=job.result["safety_backup"]).kind == "safety"


def _status_of(job_id: uuid.UUID) -> str | None:
    """The job's status, through whatever database has the name now (the switch ends this session)."""
    try:
        return VaultJob.objects.filter(pk=job_id).values_list("status", flat=True).first()
    except OperationalError:
        connections.close_all()
        return None


def test_an_owner_erased_after_the_backup_is_never_served_again_by_a_restore(ada, vault_in_tmp, monkeypatch):
    """Erase → restore an older backup, run by the worker cluster while two web workers serve:
    no answer during or after the restore shows the erased owner, the audit trail keeps the
    erasure and tells of the restore, a room session from before is refused, health stays 200."""
    reader, issued = make_agent_with_token("reader")
    grant(reader, make_workspace("team"), Role.WORKER)
    for owner, text in (("bob", "Bob keeps bees behind the old mill."), ("carol", "Carol rows every Sunday.")):
        _add(bearer_client(issued.raw), "reader", owner, text)
    backup = backup_now(actor=ada.user)
    erasure.owner_erase(actor=ada.user, user_id="bob", workspace=None, confirm="bob")
    room = Client()
    room.force_login(ada.user)
    session = room.cookies["sessionid"].value
    headers = {"Authorization": f"Bearer {issued.raw}", "Connection": "close"}
    monkeypatch.setattr("django_q.conf.Conf.SYNC", False)  # queued for the cluster, not run here

    with OpenAICompatibleServer() as stub:
        stub.queue("/v1/embeddings", *[stub_embedding] * 50)
        env = {"HELIX_EMBEDDINGS": "openai", "HELIX_EMBEDDING_BASE_URL": stub.base_url}
        with web_server(workers=2, HELIX_BACKUP_DIR=str(vault_in_tmp), **env) as base:

            def listed(owner: str) -> tuple[int, list[str]]:
                body = {"actor_id": "reader", "user_id": owner}
                answer = httpx2.post(f"{base}/api/v1/list_memories", json=body, headers=headers, timeout=60)
                found = answer.json().get("memories", []) if answer.status_code == 200 else []
                return answer.status_code, [m["content"] for m in found]

            def room_page() -> int:
                """A room page answered without a template: the archive's download, for a steward only."""
                page = f"{base}/steward/backups/{backup.id}/download/"
                answer = httpx2.get(page, cookies={"sessionid": session}, headers={"Connection": "close"}, timeout=60)
                return answer.status_code

            assert room_page() == 200, "the session opens the room before the restore"
            assert listed("bob") == (200, [])
            with worker_cluster(HELIX_BACKUP_DIR=str(vault_in_tmp), **env):
                job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")
                seen = []
                while _status_of(job.pk) not in ("succeeded", "failed"):
                    seen.append(listed("bob"))
                    assert len(seen) < 10_000, "the restore did not end"
                assert [answer for answer in seen if answer[1]] == [], "the erased owner was never served"
                # The restored tables hold the worker's heartbeat of the backup: health is green
                # again once the running worker has beaten since.
                _wait_for(lambda: _health(base).status_code == 200, "health after the restore")
                answers = [_wait_for(lambda: (a := listed("carol"))[0] == 200 and a, "the web") for _ in range(6)]
                assert {tuple(a[1]) for a in answers} == {("Carol rows every Sunday.",)}
                assert [listed("bob") for _ in range(6)] == [(200, [])] * 6
                assert room_page() == 302, "a session from before the restore opens nothing"

    job = VaultJob.objects.get(pk=job.pk)
    assert (job.status, job.error) == ("succeeded", ""), job.error
    assert [again["user_id"] for again in job.result["erasures_reapplied"]] == ["bob"]
    actions = set(AuditEntry.objects.values_list("action", "target"))
    assert {("owner.erase", "owner:bob"), ("owner.erase.reapply", "owner:bob")} <= actions
    assert ("backup.restored", f"backup:{backup.id}") in actions


def test_a_restore_killed_mid_way_leaves_the_installation_as_it_was(ada, vault_in_tmp, monkeypatch):
    """The worker running a restore is killed once the safety backup is taken and the restored copy
    is being prepared: the live database was never touched (the erased owner stays erased, the
    ledger holds the erasure, writes since the backup stay), and the next vault action puts right
    what the restore left: its copy is dropped, its job failed, the vault free again."""
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    _add(api, "writer", "bob", "Bob keeps bees behind the old mill.")
    backup = backup_now(actor=ada.user)
    erasure.owner_erase(actor=ada.user, user_id="bob", workspace=None, confirm="bob")
    _add(api, "writer", "carol", "Carol rows every Sunday.")
    monkeypatch.setattr("django_q.conf.Conf.SYNC", False)
    mid_way = ("restoring into a new database", "carrying the audit trail over")

    job = restore_request(actor=ada.user, backup=backup, phrase=f"RESTORE {backup.id}")  # queued, no worker yet
    with postgres.connect(autocommit=False) as one, postgres.connect(autocommit=False) as other:
        # The job's row held from before the worker starts: the restore waits to record each step,
        # and is let through one step at a time, however fast it runs, until its copy is prepared.
        one.execute(HOLD_JOB, [job.pk])
        with worker_cluster(HELIX_BACKUP_DIR=str(vault_in_tmp)) as cluster:
            holder = _stepping(job.pk, one, other, until=lambda step: step in mid_way)
            assert _step_of(job.pk) in mid_way
            assert Backup.objects.filter(kind="safety", status="ready").exists(), "the safety backup was taken"
            killed = [psutil.Process(cluster.pid), *psutil.Process(cluster.pid).children(recursive=True)]
            os.killpg(cluster.pid, signal.SIGKILL)
            holder.rollback()
    # SIGKILL is delivered, not yet done: on a busy machine the process running the restore can
    # outlive the signal for a moment, and the vault rightly sees a restore still running then.
    _wait_for(lambda: not any(_running(p) for p in killed), "the killed cluster's processes to end")

    safety = Backup.objects.get(kind="safety")
    later = backup_now(actor=ada.user)  # the next vault action puts right what the restore left

    assert later.ready
    job = VaultJob.objects.get(pk=job.pk)
    assert (job.status, job.error) == ("failed", "The restore was interrupted; nothing was changed.")
    assert restore_marker.restore_abandoned() is None and restore_marker.restore_running() is None
    assert _leftover_databases() == []
    assert not Memory.objects.filter(user_id="bob").exists()
    assert list(Memory.objects.filter(user_id="carol").values_list("content", flat=True)) == [
        "Carol rows every Sunday."
    ]
    assert Erasure.objects.filter(user_id="bob").count() == 1, "the ledger is as it was"
    assert Backup.objects.get(pk=safety.pk).ready


def _health(base: str) -> httpx2.Response:
    return httpx2.get(f"{base}/healthz", headers={"Connection": "close"}, timeout=60)


def _running(process: psutil.Process) -> bool:
    """As the vault tells a restore's process alive (``restore_marker``): a zombie has ended."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _add(api: Any, actor: str, owner: str, message: str) -> None:
    body = {"actor_id": actor, "user_id": owner, "message": message}
    answer = api.post("/api/v1/add_memory", body, format="json")
    assert answer.status_code == 200, answer.content


def _step_of(job_id: uuid.UUID) -> str | None:
    return VaultJob.objects.filter(pk=job_id).values_list("step", flat=True).first()


HOLD_JOB = "SELECT 1 FROM vault_vaultjob WHERE id = %s FOR UPDATE"


def _stepping(job_id: uuid.UUID, held: Any, waiting: Any, *, until: Callable[[str], bool]) -> Any:
    """With the job's row held on ``held``, each time the restore waits to record a step, let it
    record exactly one: ``waiting`` asks for the row behind the waiting restore before ``held`` lets
    go, so the restore is held again at its next step. Stops once the step last recorded satisfies
    ``until``; answers the connection then holding the row."""
    while True:
        _wait_for(_a_step_waits, "the restore to wait for its job's row")
        if until(_step_of(job_id) or ""):
            return held
        queued = threading.Thread(target=waiting.execute, args=(HOLD_JOB, [job_id]))
        queued.start()
        _wait_for(_a_hold_waits, "the next hold to queue behind the restore")
        held.rollback()
        queued.join()
        held, waiting = waiting, held


def _a_hold_waits() -> bool:
    return _waits_on_a_lock("SELECT 1 FROM vault_vaultjob")


def _a_step_waits() -> bool:
    return _waits_on_a_lock('UPDATE "vault_vaultjob"')


def _waits_on_a_lock(statement: str) -> bool:
    """A session of the server waits on a lock running a statement that begins with ``statement``."""
    with postgres.connect() as conn:
        query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND starts_with(query, %s)"
        return bool(conn.execute(query, [statement]).fetchone()[0])

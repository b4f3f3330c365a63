"""After a restore every running process serves the restored data: two web workers (pooled
connections to the old database, ended by the switch) and a django-q2 cluster (its broker's
connection ended too) reconnect by name to the restored database, with no restart.

Writes are buffered (HELIX_ADD_BUFFERED): the web answers "accepted" and the cluster writes, so
one write after the restore shows the cluster writing into the restored database. Embeddings
come from a stub endpoint on loopback: no process loads a model."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from django.db import OperationalError, connections

from memory.models import Memory
from rbac.models import Role, Workspace
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.services import backup_now, restore_request
from tests.factories import grant, make_agent_with_token, make_workspace
from tests.openai_compatible_server import OpenAICompatibleServer
from tests.processes import web_server, worker_cluster
from tests.reliability.test_buffered_writes import stub_embedding

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

            # The running worker is seen running: its heartbeat is carried into the restored
            # database, and its next one is written on a new connection (no false "worker failing").
            health = httpx2.get(f"{base}/healthz", headers={"Connection": "close"}, timeout=60)
            assert health.status_code == 200, health.text
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

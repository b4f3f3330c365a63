"""An installation made by the previous layout upgrades in place.

Before the restructuring, fastthink, outbox and presence were top-level packages, and django-q2
named their tasks by those paths: in its schedules and in the tasks waiting in its queue. The
three ``0003_task_paths`` migrations rename them. Here the database is put back where the
previous main left it (every migration up to the three ``0002``s, which create the schedules
with the old paths), filled the way the previous main filled it, migrated to the latest state,
then read back through the API and worked through by the django-q2 worker.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Event, Queue, Value
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django_q.brokers import get_broker
from django_q.conf import Conf
from django_q.models import OrmQ, Schedule, Task
from django_q.monitor import monitor
from django_q.pusher import pusher
from django_q.scheduler import scheduler
from django_q.signing import SignedPackage
from django_q.tasks import async_task
from django_q.worker import worker
from rest_framework.test import APIClient

from memory.fastthink.services import think_add, think_start
from memory.services.add import memory_add
from rbac.models import Role
from rbac.policy import write_domain_resolve
from rbac.presence.services import agent_heartbeat
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WITHOUT_SCHEDULES = [("fastthink", "0001_initial"), ("outbox", "0001_initial"), ("presence", "0001_agent_instance")]
PREVIOUS_MAIN = [
    ("fastthink", "0002_sweep_schedule"),
    ("outbox", "0002_prune_schedule"),
    ("presence", "0002_expire_schedule"),
]
SCHEDULED = {
    "fastthink.tasks.think_sweep": "memory.fastthink.tasks.think_sweep",
    "outbox.tasks.outbox_prune": "memory.outbox.tasks.outbox_prune",
    "presence.tasks.presence_expire": "rbac.presence.tasks.presence_expire",
}
ADDED = "memory.tasks.stranded_requeue"  # a schedule the upgrade brings (outbox.0004)
OLD_ADD_TASK, NEW_ADD_TASK = "outbox.tasks.pending_input_run", "memory.tasks.pending_input_run"
ENRICH_TASK = "memory.tasks.memory_enrich"  # did not move: queued ones are left as they are
PROFILE_TASK = "memory.tasks.profile_refresh"  # the enrichment queues the owner's profile refresh
# What the previous main stored for a buffered add_memory (outbox.services._accept): the call's
# arguments as given, None where the agent sent nothing.
OLD_PAYLOAD = {
    "message": "Bob uses Vim.",
    "extract": True,
    "agent_id": "",
    "metadata": None,
    "occurred_at": None,
    "context": None,
}


@dataclass
class OldInstallation:
    client: APIClient  # the writer's token, issued before the upgrade
    osaka: str  # a memory of bob's
    denial: str  # the memory that contradicts it
    pending_id: str  # a buffered add still waiting in the queue


@pytest.fixture
def old_installation(transactional_db, monkeypatch) -> Iterator[OldInstallation]:
    """The database as the previous main left it, with its data; at the latest migration again afterwards."""
    monkeypatch.setattr(Conf, "SYNC", False)  # tasks go to the queue, as in production
    try:
        # The 0002 migrations run again: they create the schedules, whatever an earlier test's flush left.
        migrate(WITHOUT_SCHEDULES)
        migrate(PREVIOUS_MAIN)
        yield _filled_as_the_previous_main_did()
    finally:
        migrate(latest())  # the tests after this one expect the current schema


def test_every_row_survives_the_upgrade_and_reads_back_through_the_api(old_installation):
    old = old_installation
    rows_before = row_counts()

    migrate(latest())

    rows_after = row_counts()
    memories = call(old.client, "list_memories", user_id="bob")["memories"]
    denial = call(old.client, "get_memory", memory_id=old.denial)
    status = call(old.client, "get_add_status", pending_id=old.pending_id)
    thinking = call(old.client, "think_status", session_id="plan")
    swarm = call(old.client, "swarm_status")
    assert rows_after == {**rows_before, "django_q.Schedule": rows_before["django_q.Schedule"] + 1}  # ADDED
    assert old.client.get("/api/v1/whoami").json()["actor_id"] == "writer"
    assert {(m["id"], m["content"]) for m in memories} == {
        (old.osaka, "Bob lives in Osaka."),
        (old.denial, "Bob does not live in Osaka."),
    }
    assert [(e["direction"], e["type"], e["target"]) for e in denial["edges"]] == [("out", "CONTRADICTS", old.osaka)]
    assert (status["status"], status["user_id"], status["group_id"]) == ("queued", "bob", "team")
    assert thinking["session"]["state"] == "thinking"
    assert [(t["type"], t["content"]) for t in thinking["thoughts"]] == [
        ("reasoning", "Where does bob live?"),
        ("observation", "Two memories disagree about Osaka."),
    ]
    assert [i["agent_id"] for f in swarm["families"] for i in f["instances"]] == ["writer:main"]


def test_after_the_upgrade_the_worker_runs_the_schedules_and_the_queued_add(old_installation):
    old = old_installation
    assert schedule_paths() == set(SCHEDULED)
    assert queued_paths() == {OLD_ADD_TASK, ENRICH_TASK}

    migrate(latest())

    assert schedule_paths() == {*SCHEDULED.values(), ADDED}
    assert queued_paths() == {NEW_ADD_TASK, ENRICH_TASK}
    worker_runs_what_is_due()
    status = call(old.client, "get_add_status", pending_id=old.pending_id)
    found = call(old.client, "search_memory", user_id="bob", query="which editor does bob use")
    # Other schedules may be due too (their rows survive only if no earlier test flushed them).
    ran = {(t.func, t.success) for t in Task.objects.all()}
    assert ran >= {(path, True) for path in [*SCHEDULED.values(), ADDED, NEW_ADD_TASK, ENRICH_TASK, PROFILE_TASK]}
    assert all(success for _, success in ran)
    assert OrmQ.objects.count() == 0
    assert status["status"] == "done"
    assert found["results"][0]["id"] == status["result"]["memory_ids"][0]
    assert found["results"][0]["content"] == "Bob uses Vim."


def test_migrating_back_restores_the_old_task_paths(old_installation):
    old = old_installation
    migrate(latest())

    migrate(PREVIOUS_MAIN)

    assert schedule_paths() == set(SCHEDULED)
    assert [t["args"] for t in queued_tasks() if t["func"] == OLD_ADD_TASK] == [(old.pending_id,)]
    assert queued_paths() == {OLD_ADD_TASK, ENRICH_TASK}


def _filled_as_the_previous_main_did() -> OldInstallation:
    team = make_workspace("team")
    writer, issued = make_agent_with_token("writer")
    grant(writer, team, Role.WORKER)
    osaka = memory_add(actor=writer.user, user_id="bob", group_id="team", message="Bob lives in Osaka.")
    denial = memory_add(actor=writer.user, user_id="bob", group_id="team", message="Bob does not live in Osaka.")
    think_start(actor=writer.user, session_id="plan", initial_thought="Where does bob live?")
    think_add(
        actor=writer.user, session_id="plan", content="Two memories disagree about Osaka.", thought_type="observation"
    )
    agent_heartbeat(actor=writer.user, agent_id="writer:main", status="upgrading")
    domain = write_domain_resolve(actor=writer.user, group_id="team")
    pending = _previous_model("outbox", "PendingInput").objects.create(
        creator_id=writer.user.pk, user_id="bob", workspace_id=team.pk, rbac_scope=domain.scope, payload=OLD_PAYLOAD
    )
    async_task(OLD_ADD_TASK, str(pending.id), task_name=f"add {pending.id}")  # the previous main's call
    return OldInstallation(bearer_client(issued.raw), osaka["memory_ids"][0], denial["memory_ids"][0], str(pending.id))


def _previous_model(app_label: str, name: str) -> Any:
    """The model as the previous main's schema has it (the current one may have columns it lacks)."""
    state = MigrationExecutor(connection).loader.project_state(PREVIOUS_MAIN)
    return state.apps.get_model(app_label, name)


def migrate(targets: list[tuple[str, str]]) -> None:
    MigrationExecutor(connection).migrate(targets)


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def row_counts() -> dict[str, int]:
    return {model._meta.label: model._base_manager.count() for model in apps.get_models()}


def schedule_paths() -> set[str]:
    return set(Schedule.objects.values_list("func", flat=True))


def queued_tasks() -> list[dict[str, Any]]:
    return [SignedPackage.loads(payload) for payload in OrmQ.objects.values_list("payload", flat=True)]


def queued_paths() -> set[str]:
    return {task["func"] for task in queued_tasks()}


def call(client: APIClient, tool: str, **params: Any) -> dict[str, Any]:
    response = client.post(f"/api/v1/{tool}", {"actor_id": "writer", **params}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def worker_runs_what_is_due() -> None:
    """What a qcluster does, in this process: its scheduler queues the schedules that are due, then
    its pusher, worker and monitor take each queued task, run it and record the result."""
    broker = get_broker()
    scheduler(broker=broker)
    while broker.queue_size():  # a failed task stays locked and leaves the count
        tasks, results, pull_once = Queue(), Queue(), Event()
        pull_once.set()
        pusher(tasks, pull_once, broker=broker)
        tasks.put("STOP")
        worker(tasks, results, Value("f", -1))
        results.put("STOP")
        monitor(results, broker=broker)

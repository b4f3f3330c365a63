"""The expiry task: stale instances end, long-ended ones are deleted, a rerun changes nothing."""

from __future__ import annotations

from datetime import timedelta

from django.test import override_settings
from django.utils import timezone
from django_q.models import Schedule

from rbac.presence.models import AgentInstance
from rbac.presence.services import agent_farewell, agent_heartbeat
from rbac.presence.tasks import presence_expire
from tests.rbac.presence.conftest import age, instance


@override_settings(HELIX_PRESENCE_STALE_SECONDS=900)
def test_stale_instances_end_and_a_second_run_changes_nothing(crew):
    ann = crew["ann"]
    for agent_id in ("fresh", "stale", "stale-root"):
        agent_heartbeat(actor=ann, agent_id=agent_id)
    agent_heartbeat(actor=ann, agent_id="stale-root/sub", parent_agent_id="stale-root")
    for agent_id in ("stale", "stale-root", "stale-root/sub"):
        age(ann, agent_id, seconds=901)

    assert presence_expire() == {"ended": 3, "deleted": 0}
    assert presence_expire() == {"ended": 0, "deleted": 0}

    assert instance(ann, "fresh").ended_at is None
    assert instance(ann, "stale").end_reason == "expired"
    assert instance(ann, "stale-root/sub").ended_at is not None


@override_settings(HELIX_PRESENCE_STALE_SECONDS=900)
def test_a_root_waiting_on_a_working_subagent_is_not_stale(crew):
    ann = crew["ann"]
    agent_heartbeat(actor=ann, agent_id="root")
    agent_heartbeat(actor=ann, agent_id="root/worker", parent_agent_id="root")
    age(ann, "root", seconds=1800)

    assert presence_expire()["ended"] == 0
    age(ann, "root/worker", seconds=1000)
    assert presence_expire()["ended"] == 2
    assert instance(ann, "root").end_reason == "expired"


@override_settings(HELIX_PRESENCE_RETENTION_DAYS=7)
def test_instances_ended_longer_ago_than_the_retention_are_deleted(crew):
    ann = crew["ann"]
    for agent_id in ("old", "recent", "live"):
        agent_heartbeat(actor=ann, agent_id=agent_id)
    agent_farewell(actor=ann, agent_id="old")
    agent_farewell(actor=ann, agent_id="recent")
    AgentInstance.objects.filter(agent_id="old").update(ended_at=timezone.now() - timedelta(days=8))

    assert presence_expire() == {"ended": 0, "deleted": 1}
    assert presence_expire() == {"ended": 0, "deleted": 0}
    assert sorted(AgentInstance.objects.values_list("agent_id", flat=True)) == ["live", "recent"]


def test_a_heartbeat_after_expiry_revives_the_instance(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    age(crew["ann"], "main", seconds=10 * 24 * 3600)
    presence_expire()

    assert agent_heartbeat(actor=crew["ann"], agent_id="main")["outcome"] == "revived"


def test_the_task_is_scheduled_every_minute(db):
    schedule = Schedule.objects.get(name="presence_expire")

    assert (schedule.func, schedule.schedule_type, schedule.minutes, schedule.repeats) == (
        "rbac.presence.tasks.presence_expire",
        Schedule.MINUTES,
        1,
        -1,
    )

"""agent_heartbeat: publish, refresh, revive; bounded input; subagents under their own root."""

from __future__ import annotations

import pytest
from django.test import override_settings

from helixsite.errors import ApplicationError
from memory.models import Memory
from rbac.policy import SYSTEM
from rbac.presence.api import AgentHeartbeatApi
from rbac.presence.models import AgentInstance
from rbac.presence.services import agent_farewell, agent_heartbeat
from rbac.services import principal_deactivate
from tests.factories import tool_call
from tests.rbac.presence.conftest import age, instance


def refusal(call) -> ApplicationError:
    with pytest.raises(ApplicationError) as refused:
        call()
    return refused.value


def test_first_heartbeat_publishes_the_instance_and_writes_no_memory(crew):
    answer = agent_heartbeat(actor=crew["ann"], agent_id="claude-code:main", status="reading the repo")

    assert answer["ok"] is True
    assert answer["actor_id"] == "ann"
    assert answer["agent_id"] == "claude-code:main"
    assert answer["status"] == "reading the repo"
    assert answer["parent_agent_id"] is None
    assert answer["outcome"] == "created"
    assert answer["first_seen"] == answer["last_seen"]
    assert Memory.objects.count() == 0


def test_heartbeat_refreshes_the_same_row(crew):
    first = agent_heartbeat(actor=crew["ann"], agent_id="main")
    age(crew["ann"], "main", seconds=120)

    second = agent_heartbeat(actor=crew["ann"], agent_id="main", status="running tests")

    assert second["outcome"] == "refreshed"
    assert second["status"] == "running tests"
    assert second["last_seen"] > first["last_seen"]
    assert second["first_seen"] < second["last_seen"], "a refresh keeps the session's start"
    assert AgentInstance.objects.filter(user=crew["ann"], agent_id="main").count() == 1


def test_the_same_agent_id_under_two_principals_is_two_instances(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    agent_heartbeat(actor=crew["ben"], agent_id="main")

    assert sorted(AgentInstance.objects.values_list("user__username", flat=True)) == ["ann", "ben"]


@pytest.mark.parametrize(
    "status",
    [
        "done",
        "Done.",
        "DONE!!!",
        "all done",
        "finished successfully",
        "task completed",
        "failed-and-exited",
        "exited with code 1",
        "shutting down",
        "terminated",
        "stopped",
        "dead",
        "goodbye",
        "done: wrote the report",
    ],
)
def test_terminal_statuses_are_refused_with_a_pointer_to_farewell(crew, status):
    refused = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="main", status=status))

    assert (refused.code, refused.field, refused.status) == ("terminal_status", "status", 400)
    assert "agent_farewell" in refused.message
    assert not AgentInstance.objects.exists()


@pytest.mark.parametrize(
    "status",
    [
        "active",
        "idle",
        "failed a test, retrying",
        "waiting for the build to complete",
        "completed step 1 of 3",
        "done with parsing, now indexing",
        "not done yet",
        "blocked: needs review",
    ],
)
def test_progress_statuses_that_mention_ending_words_are_accepted(crew, status):
    assert agent_heartbeat(actor=crew["ann"], agent_id="main", status=status)["status"] == status


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("agent_id", {"agent_id": ""}),
        ("agent_id", {"agent_id": "x" * 129}),
        ("agent_id", {"agent_id": "has space"}),
        ("agent_id", {"agent_id": "naïve"}),
        ("status", {"agent_id": "main", "status": ""}),
        ("status", {"agent_id": "main", "status": "   "}),
        ("status", {"agent_id": "main", "status": "y" * 201}),
        ("status", {"agent_id": "main", "status": "two\nlines"}),
        ("status", {"agent_id": "main", "status": None}),
        ("parent_agent_id", {"agent_id": "main", "parent_agent_id": "bad id"}),
        ("parent_agent_id", {"agent_id": "main", "parent_agent_id": "main"}),
    ],
)
def test_out_of_bounds_input_is_refused_with_its_field(crew, field, kwargs):
    refused = refusal(lambda: tool_call(AgentHeartbeatApi, actor=crew["ann"], **kwargs))

    assert (refused.status, refused.field) == (400, field)
    assert not AgentInstance.objects.exists()


def test_the_longest_agent_id_and_status_fit(crew):
    agent_id = "a.b_c:d-e/f@g" + "x" * 115
    answer = agent_heartbeat(actor=crew["ann"], agent_id=agent_id, status="z" * 200)

    assert (len(answer["agent_id"]), len(answer["status"])) == (128, 200)


def test_a_subagent_is_grouped_under_its_root(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")

    answer = agent_heartbeat(actor=crew["ann"], agent_id="main/explore-1", parent_agent_id="main")

    assert answer["parent_agent_id"] == "main"
    assert instance(crew["ann"], "main/explore-1").parent == instance(crew["ann"], "main")
    later = agent_heartbeat(actor=crew["ann"], agent_id="main/explore-1", status="grepping")
    assert later["parent_agent_id"] == "main", "a progress heartbeat need not repeat its parent"


def test_another_principals_instance_cannot_be_a_parent(crew):
    agent_heartbeat(actor=crew["ben"], agent_id="bens-main")

    refused = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="helper", parent_agent_id="bens-main"))

    assert (refused.code, refused.field, refused.status) == ("not_found", "parent_agent_id", 404)
    assert (
        refused.message
        == refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="helper", parent_agent_id="bens-main")).message
    )
    assert not AgentInstance.objects.filter(user=crew["ann"]).exists()


def test_an_ended_parent_or_a_subagent_parent_is_refused(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    agent_heartbeat(actor=crew["ann"], agent_id="sub", parent_agent_id="main")
    nested = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="subsub", parent_agent_id="sub"))
    agent_farewell(actor=crew["ann"], agent_id="main")
    ended = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="late", parent_agent_id="main"))

    assert (nested.code, nested.field) == ("nested_subagent", "parent_agent_id")
    assert (ended.code, ended.field, ended.status) == ("parent_ended", "parent_agent_id", 409)


def test_a_live_instance_cannot_change_its_parent(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    agent_heartbeat(actor=crew["ann"], agent_id="other")
    agent_heartbeat(actor=crew["ann"], agent_id="sub", parent_agent_id="main")

    moved = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="sub", parent_agent_id="other"))
    demoted = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="other", parent_agent_id="main"))

    assert (moved.code, moved.status) == ("parent_mismatch", 409)
    assert "subagent of main" in moved.message
    assert demoted.code == "parent_mismatch"
    assert instance(crew["ann"], "sub").parent.agent_id == "main"


def test_a_heartbeat_revives_an_ended_instance_as_a_new_session(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    agent_heartbeat(actor=crew["ann"], agent_id="sub", parent_agent_id="main")
    agent_farewell(actor=crew["ann"], agent_id="main")
    age(crew["ann"], "sub", seconds=600)

    answer = agent_heartbeat(actor=crew["ann"], agent_id="sub", status="back again")

    assert answer["outcome"] == "revived"
    assert answer["parent_agent_id"] is None, "a revival starts where this call says: here, as a root"
    assert answer["first_seen"] == answer["last_seen"]
    revived = instance(crew["ann"], "sub")
    assert (revived.ended_at, revived.end_reason, revived.sessions) == (None, "", 2)


@override_settings(HELIX_PRESENCE_MAX_INSTANCES=3, HELIX_PRESENCE_STALE_SECONDS=900)
def test_live_instances_per_principal_are_capped(crew):
    for n in range(3):
        agent_heartbeat(actor=crew["ann"], agent_id=f"worker-{n}")

    refused = refusal(lambda: agent_heartbeat(actor=crew["ann"], agent_id="worker-3"))
    assert (refused.code, refused.status, refused.details["limit"]) == ("too_many_instances", 409, 3)
    assert agent_heartbeat(actor=crew["ann"], agent_id="worker-0")["outcome"] == "refreshed"
    assert agent_heartbeat(actor=crew["ben"], agent_id="worker-3")["outcome"] == "created", "the cap is per principal"

    age(crew["ann"], "worker-1", seconds=901)
    assert agent_heartbeat(actor=crew["ann"], agent_id="worker-3")["outcome"] == "created", "stale ones make room"
    assert instance(crew["ann"], "worker-1").end_reason == "expired"


def test_deactivated_principals_and_the_system_actor_cannot_heartbeat(crew):
    principal_deactivate(actor=SYSTEM, user=crew["ben"])

    assert refusal(lambda: agent_heartbeat(actor=crew["ben"], agent_id="main")).code == "forbidden"
    assert refusal(lambda: agent_heartbeat(actor=SYSTEM, agent_id="main")).code == "forbidden"
    assert not AgentInstance.objects.exists()

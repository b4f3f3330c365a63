"""agent_farewell: only one's own instances, subagents end with their root, idempotent."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from rbac.presence.selectors import swarm_status
from rbac.presence.services import agent_farewell, agent_heartbeat
from tests.factories import make_memory
from tests.rbac.presence.conftest import instance


def test_farewell_ends_the_instance_and_its_subagents(crew):
    ann = crew["ann"]
    agent_heartbeat(actor=ann, agent_id="main")
    agent_heartbeat(actor=ann, agent_id="main/b", parent_agent_id="main")
    agent_heartbeat(actor=ann, agent_id="main/a", parent_agent_id="main")
    agent_heartbeat(actor=ann, agent_id="other")

    answer = agent_farewell(actor=ann, agent_id="main")

    assert answer["ok"] is True
    assert (answer["actor_id"], answer["agent_id"], answer["already_ended"]) == ("ann", "main", False)
    assert (answer["end_reason"], answer["subagents_ended"]) == ("farewell", ["main/a", "main/b"])
    assert instance(ann, "main/a").end_reason == "parent_ended"
    assert instance(ann, "other").ended_at is None
    assert swarm_status(actor=ann)["instances_total"] == 1


def test_a_subagent_may_say_farewell_alone(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    agent_heartbeat(actor=crew["ann"], agent_id="main/a", parent_agent_id="main")

    answer = agent_farewell(actor=crew["ann"], agent_id="main/a")

    assert answer["subagents_ended"] == []
    assert instance(crew["ann"], "main").ended_at is None


def test_a_second_farewell_is_ok_and_says_the_instance_had_ended(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")
    first = agent_farewell(actor=crew["ann"], agent_id="main")

    again = agent_farewell(actor=crew["ann"], agent_id="main")

    assert (again["ok"], again["already_ended"], again["ended_at"]) == (True, True, first["ended_at"])


def test_another_principals_instance_is_not_found_and_stays_live(crew):
    agent_heartbeat(actor=crew["ben"], agent_id="bens-main")

    with pytest.raises(ApplicationError) as foreign:
        agent_farewell(actor=crew["ann"], agent_id="bens-main")
    with pytest.raises(ApplicationError) as unknown:
        agent_farewell(actor=crew["ann"], agent_id="nobody")

    assert (foreign.value.code, foreign.value.status, foreign.value.field) == ("not_found", 404, "agent_id")
    assert foreign.value.message.replace("bens-main", "X") == unknown.value.message.replace("nobody", "X")
    assert instance(crew["ben"], "bens-main").ended_at is None


def test_a_global_admin_cannot_end_someone_elses_instance_either(crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main")

    with pytest.raises(ApplicationError) as refused:
        agent_farewell(actor=crew["root"], agent_id="main")

    assert refused.value.code == "not_found"
    assert instance(crew["ann"], "main").ended_at is None


def test_farewell_leaves_authorship_of_memories_alone(crew):
    from rbac.policy import write_domain_resolve

    domain = write_domain_resolve(actor=crew["ann"], group_id="team")
    memory = make_memory(author=crew["ann"].principal, domain=domain, content="The build uses make.", agent_id="main")
    agent_heartbeat(actor=crew["ann"], agent_id="main")

    agent_farewell(actor=crew["ann"], agent_id="main")

    memory.refresh_from_db()
    assert (memory.author.username, memory.agent_id) == ("ann", "main")


def test_bad_agent_ids_are_refused(crew):
    with pytest.raises(ApplicationError) as refused:
        agent_farewell(actor=crew["ann"], agent_id="")

    assert (refused.value.code, refused.value.field) == ("invalid", "agent_id")

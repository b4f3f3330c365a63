"""swarm_status: families of visible principals, active vs total within a window, bounded."""

from __future__ import annotations

import pytest
from django.test import override_settings

from helixsite.errors import ApplicationError
from rbac.policy import SYSTEM
from rbac.presence.api import SwarmStatusApi
from rbac.presence.selectors import swarm_status
from rbac.presence.services import agent_heartbeat
from tests.factories import tool_call
from tests.rbac.presence.conftest import age


@pytest.fixture
def swarm(crew):
    """ann: a root with two subagents, one idle for 10 minutes; a second root idle for 10
    minutes. ben: one root. out (another workspace): one root."""
    ann, ben, out = crew["ann"], crew["ben"], crew["out"]
    agent_heartbeat(actor=ann, agent_id="ann-main", status="planning")
    agent_heartbeat(actor=ann, agent_id="ann-main/a", parent_agent_id="ann-main", status="exploring")
    agent_heartbeat(actor=ann, agent_id="ann-main/b", parent_agent_id="ann-main")
    agent_heartbeat(actor=ann, agent_id="ann-nightly")
    agent_heartbeat(actor=ben, agent_id="ben-main", status="reviewing")
    agent_heartbeat(actor=out, agent_id="out-secret")
    age(ann, "ann-main/b", seconds=600)
    age(ann, "ann-nightly", seconds=600)
    return crew


def names(status: dict) -> dict[str, list[str]]:
    return {family["actor_id"]: [i["agent_id"] for i in family["instances"]] for family in status["families"]}


def test_counts_principals_and_instances_active_within_the_window(swarm):
    status = swarm_status(actor=swarm["ann"], active_window_secs=300)

    assert status["ok"] is True and status["window_secs"] == 300
    assert (status["active"], status["total"]) == (2, 2)
    assert (status["instances_active"], status["instances_total"]) == (3, 5)
    assert (status["subagents_active"], status["subagents_total"]) == (1, 2)
    assert status["truncated"] is False


def test_a_wider_window_makes_idle_instances_active_and_a_narrow_one_idles_a_principal(swarm):
    age(swarm["ben"], "ben-main", seconds=120)

    wide = swarm_status(actor=swarm["ann"], active_window_secs=3600)
    narrow = swarm_status(actor=swarm["ann"], active_window_secs=60)

    assert (wide["instances_active"], wide["subagents_active"]) == (5, 2)
    assert (narrow["active"], narrow["total"]) == (1, 2)
    ben = next(f for f in narrow["families"] if f["actor_id"] == "ben")
    assert (ben["active"], ben["instances_active"], ben["instances_total"]) == (False, 0, 1)


def test_families_nest_subagents_under_their_root(swarm):
    status = swarm_status(actor=swarm["ann"], active_window_secs=300)

    ann = next(f for f in status["families"] if f["actor_id"] == "ann")
    assert (ann["kind"], ann["active"]) == ("agent", True)
    assert (ann["instances_active"], ann["instances_total"]) == (2, 4)
    main, nightly = ann["instances"]
    assert (main["agent_id"], main["status"], main["active"]) == ("ann-main", "planning", True)
    assert [(s["agent_id"], s["parent_agent_id"], s["active"]) for s in main["subagents"]] == [
        ("ann-main/a", "ann-main", True),
        ("ann-main/b", "ann-main", False),
    ]
    assert (nightly["agent_id"], nightly["active"], nightly["subagents"]) == ("ann-nightly", False, [])


def test_co_workspace_principals_are_seen_but_outsiders_are_neither_listed_nor_counted(swarm):
    for viewer in ("ann", "ben"):
        status = swarm_status(actor=swarm[viewer], active_window_secs=300)
        assert names(status) == {"ann": ["ann-main", "ann-nightly"], "ben": ["ben-main"]}
        assert status["total"] == 2 and status["instances_total"] == 5

    outsider = swarm_status(actor=swarm["out"], active_window_secs=300)
    assert names(outsider) == {"out": ["out-secret"]}
    assert (outsider["total"], outsider["instances_total"]) == (1, 1)


def test_a_global_admin_sees_every_principal(swarm):
    for admin in (swarm["root"], SYSTEM):
        status = swarm_status(actor=admin, active_window_secs=300)
        assert set(names(status)) == {"ann", "ben", "out"}
        assert (status["total"], status["instances_total"]) == (3, 6)


def test_ended_instances_leave_the_roster(swarm):
    from rbac.presence.services import agent_farewell

    agent_farewell(actor=swarm["ann"], agent_id="ann-main")

    status = swarm_status(actor=swarm["ben"], active_window_secs=300)
    assert names(status) == {"ben": ["ben-main"], "ann": ["ann-nightly"]}
    assert (status["active"], status["total"], status["subagents_total"]) == (1, 2, 0)


def test_the_default_window_comes_from_settings(swarm):
    with override_settings(HELIX_PRESENCE_ACTIVE_WINDOW_SECONDS=900):
        status = swarm_status(actor=swarm["ann"])

    assert (status["window_secs"], status["instances_active"]) == (900, 5)


@pytest.mark.parametrize("window", [0, -5, 7 * 24 * 3600 + 1, "soon", "", 1.5, True])
def test_windows_out_of_bounds_are_refused(crew, window):
    with pytest.raises(ApplicationError) as refused:
        tool_call(SwarmStatusApi, actor=crew["ann"], active_window_secs=window)

    assert (refused.value.status, refused.value.field) == (400, "active_window_secs")


def test_window_bounds_are_inclusive(crew):
    assert swarm_status(actor=crew["ann"], active_window_secs=1)["window_secs"] == 1
    assert tool_call(SwarmStatusApi, actor=crew["ann"], active_window_secs="604800")["window_secs"] == 604800


@override_settings(HELIX_PRESENCE_ROSTER_MAX=4)
def test_a_long_roster_lists_recent_families_first_and_says_it_was_cut(swarm):
    for user, agent_id, seconds in [
        ("out", "out-secret", 5),
        ("ben", "ben-main", 10),
        ("ann", "ann-main", 20),
        ("ann", "ann-main/a", 30),
    ]:
        age(swarm[user], agent_id, seconds=seconds)

    status = swarm_status(actor=swarm["root"], active_window_secs=300)

    listed = [
        (f["actor_id"], i["agent_id"], [s["agent_id"] for s in i["subagents"]])
        for f in status["families"]
        for i in f["instances"]
    ]
    assert listed == [("out", "out-secret", []), ("ben", "ben-main", []), ("ann", "ann-main", ["ann-main/a"])]
    assert (status["truncated"], status["roster_limit"]) == (True, 4)
    assert status["instances_total"] == 6, "counters still cover everyone"
    assert status["families"][2]["instances_total"] == 4, "and so do a family's"


def test_deactivated_principals_cannot_look(crew):
    from rbac.services import principal_deactivate

    principal_deactivate(actor=SYSTEM, user=crew["ben"])
    with pytest.raises(ApplicationError) as refused:
        swarm_status(actor=crew["ben"])

    assert refused.value.code == "forbidden"

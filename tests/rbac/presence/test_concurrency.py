"""Concurrent heartbeats for one instance make one row; a racing farewell never leaves an orphan."""

from __future__ import annotations

import pytest

from rbac.presence.models import AgentInstance
from rbac.presence.services import agent_farewell, agent_heartbeat
from tests.factories import make_principal
from tests.threads import run_together


@pytest.fixture
def ann(transactional_db):
    return make_principal("ann").user


def test_concurrent_first_heartbeats_create_one_instance(ann):
    results = run_together([lambda: agent_heartbeat(actor=ann, agent_id="main")] * 6)

    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(r["outcome"] for r in results) == ["created"] + ["refreshed"] * 5
    assert AgentInstance.objects.filter(user=ann, agent_id="main").count() == 1


def test_subagents_starting_while_their_root_says_farewell_end_with_it_or_are_refused(ann):
    agent_heartbeat(actor=ann, agent_id="main")
    calls = [lambda n=n: agent_heartbeat(actor=ann, agent_id=f"sub-{n}", parent_agent_id="main") for n in range(4)]

    results = run_together([*calls, lambda: agent_farewell(actor=ann, agent_id="main")])

    unexpected = [r for r in results if isinstance(r, Exception) and getattr(r, "code", "") != "parent_ended"]
    assert not unexpected, results
    assert not AgentInstance.objects.live().filter(user=ann, parent__isnull=False).exists()

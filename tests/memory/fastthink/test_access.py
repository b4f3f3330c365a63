"""Sessions are bound to their actor; committing follows the write-domain rules of add_memory."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from memory.fastthink.selectors import search_incomplete_thoughts, think_status
from memory.fastthink.services import think_add, think_commit, think_conclude, think_discard, think_recall, think_start
from memory.models import Memory
from rbac.policy import SYSTEM

pytestmark = pytest.mark.django_db

CALLS = {
    "think_add": lambda a: think_add(actor=a, session_id="mine", content="Let me in."),
    "think_recall": lambda a: think_recall(actor=a, session_id="mine", query="staging", parent_idx=0),
    "think_conclude": lambda a: think_conclude(actor=a, session_id="mine", conclusion="Hijacked."),
    "think_commit": lambda a: think_commit(actor=a, session_id="mine", user_id="bob", group_id="team"),
    "think_discard": lambda a: think_discard(actor=a, session_id="mine"),
    "think_status": lambda a: think_status(actor=a, session_id="mine"),
}


@pytest.mark.parametrize("persona", ["viewer", "outsider"])
@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_another_actors_session_is_not_found(team, persona, call):
    think_start(actor=team["writer"], session_id="mine", initial_thought="The writer's private reasoning.")

    with pytest.raises(ApplicationError) as refused:
        call(team[persona])

    assert (refused.value.status, refused.value.code, refused.value.field) == (404, "not_found", "session_id")
    status = think_status(actor=team["writer"], session_id="mine")
    assert (status["session"]["state"], status["session"]["thought_count"]) == ("thinking", 1)


def test_another_actors_sessions_are_never_listed(team):
    think_start(actor=team["writer"], session_id="mine", initial_thought="The writer's private reasoning.")

    assert search_incomplete_thoughts(actor=team["outsider"]) == {"ok": True, "sessions": [], "count": 0}


def test_the_same_session_id_for_two_actors_is_two_sessions(team):
    think_start(actor=team["writer"], session_id="s", initial_thought="Writer's.")
    think_start(actor=team["viewer"], session_id="s", initial_thought="Viewer's.")
    think_discard(actor=team["viewer"], session_id="s")

    writer_status = think_status(actor=team["writer"], session_id="s")

    assert writer_status["session"]["state"] == "thinking"
    assert [t["content"] for t in writer_status["thoughts"]] == ["Writer's."]


def test_a_viewer_can_think_and_recall_but_not_commit(team, bob_memories):
    viewer = team["viewer"]
    think_start(actor=viewer, session_id="s", initial_thought="Which database is staging?")
    recalled = think_recall(actor=viewer, session_id="s", query="staging database", parent_idx=0, user_id="bob")
    think_conclude(actor=viewer, session_id="s", conclusion="Staging runs on db-7 since spring.")

    with pytest.raises(ApplicationError) as refused:
        think_commit(actor=viewer, session_id="s", user_id="bob", group_id="team")
    with pytest.raises(ApplicationError) as unnamed:
        think_commit(actor=viewer, session_id="s", user_id="bob")

    assert bob_memories["staging"] in [t["memory_id"] for t in recalled["recalled"]]
    assert (refused.value.status, refused.value.code) == (403, "forbidden")
    assert (unnamed.value.status, unnamed.value.code) == (403, "forbidden")
    assert not Memory.objects.filter(content__icontains="since spring").exists()
    assert think_status(actor=viewer, session_id="s")["session"]["state"] == "decided"


def test_a_refused_commit_can_be_retried_with_a_workspace_the_actor_may_write(team):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="Where does this belong?")
    think_conclude(actor=writer, session_id="s", conclusion="Bob's on-call week starts on Monday.")

    with pytest.raises(ApplicationError) as refused:
        think_commit(actor=writer, session_id="s", user_id="bob", group_id="no-such-workspace")
    committed = think_commit(actor=writer, session_id="s", user_id="bob", group_id="team")

    assert (refused.value.status, refused.value.field) == (404, "group_id")
    assert committed["session"]["state"] == "committed"


def test_the_shell_system_actor_has_no_sessions(db):
    with pytest.raises(ApplicationError) as refused:
        think_start(actor=SYSTEM, session_id="s", initial_thought="Operator musing.")

    assert (refused.value.status, refused.value.code) == (403, "forbidden")

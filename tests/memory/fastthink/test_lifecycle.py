"""The FastThink state machine: thinking → decided → committed, or discarded; ids reused after."""

from __future__ import annotations

import json

import pytest

from helixsite.errors import ApplicationError
from memory.fastthink.selectors import search_incomplete_thoughts, think_status
from memory.fastthink.services import think_add, think_commit, think_conclude, think_discard, think_recall, think_start
from memory.models import Memory
from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db


def test_a_session_goes_from_a_first_thought_to_a_recalled_committed_memory(team, bob_memories):
    writer = team["writer"]

    started = think_start(actor=writer, session_id="plan", initial_thought="Where should the migration run first?")
    hypothesis = think_add(
        actor=writer,
        session_id="plan",
        content="Staging is the safe place to try it.",
        thought_type="hypothesis",
        parent_idx=0,
    )
    question = think_add(
        actor=writer, session_id="plan", content="Which database is staging?", thought_type="question", parent_idx=1
    )
    recalled = think_recall(actor=writer, session_id="plan", query="staging database", parent_idx=2, user_id="bob")
    evidence = next(t for t in recalled["recalled"] if t["memory_id"] == bob_memories["staging"])
    decided = think_conclude(
        actor=writer,
        session_id="plan",
        conclusion="Run the schema migration on db-7 before production.",
        supporting_idx=[1, evidence["idx"]],
    )
    committed = think_commit(actor=writer, session_id="plan", user_id="bob", group_id="team")

    first = started["thought"]
    assert started["session"]["state"] == "thinking"
    assert (first["idx"], first["type"], first["parent_idx"]) == (0, "reasoning", None)
    assert [hypothesis["thought"]["idx"], question["thought"]["idx"]] == [1, 2]
    assert (evidence["type"], evidence["parent_idx"], evidence["content"]) == (
        "observation",
        2,
        "The staging database is db-7.",
    )
    assert decided["session"]["state"] == "decided" and decided["conclusion"]["type"] == "conclusion"
    assert committed["ok"] and committed["session"]["state"] == "committed"
    assert committed["memory_ids"] == [committed["memory_id"]] == [committed["session"]["committed_memory_id"]]
    found = memory_search(actor=writer, query="schema migration db-7 production", user_id="bob")["results"]
    assert found[0]["content"] == "Run the schema migration on db-7 before production."
    status = think_status(actor=writer, session_id="plan")
    for response in (started, hypothesis, question, recalled, decided, committed, status):
        assert response["ok"] is True and json.loads(json.dumps(response)) == response


def test_the_committed_memory_is_a_conclusion_from_think_and_the_scratch_thoughts_stay_out(team, bob_memories):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="Is bob a coffee person?")
    think_add(actor=writer, session_id="s", content="He might prefer tea in the afternoon.", thought_type="hypothesis")
    think_conclude(actor=writer, session_id="s", conclusion="Bob prefers coffee with oat milk.")

    committed = think_commit(actor=writer, session_id="s", user_id="bob", group_id="team")

    memory = Memory.objects.get(pk=committed["memory_id"])
    assert (memory.memory_type, memory.source, memory.user_id) == ("conclusion", "think", "bob")
    assert not Memory.objects.filter(content__icontains="tea in the afternoon").exists()
    assert not Memory.objects.filter(content__icontains="coffee person").exists()


def test_status_shows_every_thought_with_its_parent_evidence_and_support(team, bob_memories):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="When do deploys happen?")
    recalled = think_recall(actor=writer, session_id="s", query="deploys to staging", parent_idx=0, user_id="bob")
    cited = next(t["idx"] for t in recalled["recalled"] if t["memory_id"] == bob_memories["fridays"])
    think_conclude(actor=writer, session_id="s", conclusion="Deploys happen on Fridays.", supporting_idx=[cited])

    status = think_status(actor=writer, session_id="s")

    assert status["session"]["state"] == "decided"
    assert status["session"]["thought_count"] == len(status["thoughts"])
    assert [t["idx"] for t in status["thoughts"]] == list(range(len(status["thoughts"])))
    by_idx = {t["idx"]: t for t in status["thoughts"]}
    assert by_idx[cited]["memory_id"] == bob_memories["fridays"] and by_idx[cited]["supporting"] is True
    assert by_idx[cited]["parent_idx"] == 0
    assert status["thoughts"][-1]["type"] == "conclusion" and status["thoughts"][-1]["supporting"] is False
    assert [t["supporting"] for t in status["thoughts"]].count(True) == 1
    assert status["session"]["limits"] == {"max_seconds": 90, "max_thoughts": 150, "max_chars": 4000}
    assert 0 < status["session"]["seconds_left"] <= 90


def test_discard_ends_the_session_and_frees_its_id(team):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="First attempt.")
    think_add(actor=writer, session_id="s", content="A thought to throw away.")

    discarded = think_discard(actor=writer, session_id="s")
    with pytest.raises(ApplicationError) as refused:
        think_add(actor=writer, session_id="s", content="Too late.")
    restarted = think_start(actor=writer, session_id="s", initial_thought="Second attempt.")

    assert discarded["session"]["state"] == "discarded"
    assert (refused.value.status, refused.value.code) == (409, "invalid_state")
    assert restarted["session"]["thought_count"] == 1
    assert [t["content"] for t in think_status(actor=writer, session_id="s")["thoughts"]] == ["Second attempt."]


def test_a_committed_session_id_can_start_again(team):
    writer = team["writer"]
    think_start(actor=writer, session_id="daily", initial_thought="What changed today?")
    think_conclude(actor=writer, session_id="daily", conclusion="Bob moved the standup to 10:00.")
    think_commit(actor=writer, session_id="daily", user_id="bob", group_id="team")

    again = think_start(actor=writer, session_id="daily", initial_thought="What changed tomorrow?")

    assert again["session"]["state"] == "thinking" and again["session"]["committed_memory_id"] is None


def test_an_unfinished_session_id_cannot_be_started_twice(team):
    think_start(actor=team["writer"], session_id="s", initial_thought="One.")

    with pytest.raises(ApplicationError) as refused:
        think_start(actor=team["writer"], session_id="s", initial_thought="Two.")

    assert (refused.value.status, refused.value.code, refused.value.field) == (409, "session_exists", "session_id")


@pytest.mark.parametrize(
    ("call", "state"),
    [
        (lambda a: think_commit(actor=a, session_id="s", user_id="bob", group_id="team"), "thinking"),
        (lambda a: think_add(actor=a, session_id="s", content="More."), "decided"),
        (lambda a: think_conclude(actor=a, session_id="s", conclusion="Again."), "decided"),
        (lambda a: think_discard(actor=a, session_id="s"), "committed"),
    ],
    ids=["commit-before-deciding", "add-after-deciding", "conclude-twice", "discard-after-commit"],
)
def test_calls_out_of_order_are_refused_with_the_state(team, call, state):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="Start.")
    if state in ("decided", "committed"):
        think_conclude(actor=writer, session_id="s", conclusion="Bob's team ships on Fridays.")
    if state == "committed":
        think_commit(actor=writer, session_id="s", user_id="bob", group_id="team")

    with pytest.raises(ApplicationError) as refused:
        call(writer)

    assert (refused.value.status, refused.value.code, refused.value.details["state"]) == (409, "invalid_state", state)


def test_too_many_unfinished_sessions_are_refused_until_one_is_discarded(team, settings):
    settings.HELIX_THINK_MAX_OPEN_SESSIONS = 2
    writer = team["writer"]
    think_start(actor=writer, session_id="a", initial_thought="A.")
    think_start(actor=writer, session_id="b", initial_thought="B.")

    with pytest.raises(ApplicationError) as refused:
        think_start(actor=writer, session_id="c", initial_thought="C.")
    think_discard(actor=writer, session_id="a")
    third = think_start(actor=writer, session_id="c", initial_thought="C.")

    assert (refused.value.status, refused.value.code) == (409, "too_many_sessions")
    assert third["session"]["state"] == "thinking"


def test_incomplete_sessions_are_listed_newest_first_with_their_thoughts(team, bob_memories, age):
    writer = team["writer"]
    think_start(actor=writer, session_id="old", initial_thought="Old question.")
    think_recall(actor=writer, session_id="old", query="staging database", parent_idx=0, user_id="bob")
    age("old", seconds=120)
    think_start(actor=writer, session_id="new", initial_thought="New question.")
    think_start(actor=writer, session_id="done", initial_thought="Finished question.")
    think_conclude(actor=writer, session_id="done", conclusion="Bob's build runs on Fridays.")
    think_commit(actor=writer, session_id="done", user_id="bob", group_id="team")
    think_start(actor=writer, session_id="dropped", initial_thought="Dropped question.")
    think_discard(actor=writer, session_id="dropped")

    listed = search_incomplete_thoughts(actor=writer)
    about_bob = search_incomplete_thoughts(actor=writer, user_id="bob")
    newest = search_incomplete_thoughts(actor=writer, limit=1)

    assert [(s["session_id"], s["state"]) for s in listed["sessions"]] == [("new", "thinking"), ("old", "timed_out")]
    assert listed["sessions"][1]["thoughts"][0]["content"] == "Old question."
    assert listed["sessions"][1]["thoughts"][1]["memory_id"] is not None
    assert [s["session_id"] for s in about_bob["sessions"]] == ["old"]
    assert [s["session_id"] for s in newest["sessions"]] == ["new"] and newest["count"] == 1

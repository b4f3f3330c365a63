"""Wall clock and thought budget: past them calls fail with session_timed_out, nothing is
written, and the session waits for an explicit discard."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from memory.fastthink.models import ThinkSession
from memory.fastthink.selectors import search_incomplete_thoughts, think_status
from memory.fastthink.services import think_add, think_commit, think_conclude, think_discard, think_recall, think_start
from memory.models import IngestRun, Memory

pytestmark = pytest.mark.django_db


def timed_out(call) -> ApplicationError:
    with pytest.raises(ApplicationError) as refused:
        call()
    assert (refused.value.status, refused.value.code) == (409, "session_timed_out")
    return refused.value


def test_past_the_wall_clock_every_call_fails_until_discarded_and_the_id_is_free_again(team, age):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="A slow thought.")
    age("s", seconds=91)

    errors = [
        timed_out(lambda: think_add(actor=writer, session_id="s", content="Still here?")),
        timed_out(lambda: think_recall(actor=writer, session_id="s", query="anything", parent_idx=0)),
        timed_out(lambda: think_conclude(actor=writer, session_id="s", conclusion="Too late.")),
    ]
    status = think_status(actor=writer, session_id="s")
    with pytest.raises(ApplicationError) as exists:
        think_start(actor=writer, session_id="s", initial_thought="Again.")
    discarded = think_discard(actor=writer, session_id="s")
    restarted = think_start(actor=writer, session_id="s", initial_thought="Again.")

    assert {e.details["reason"] for e in errors} == {"wall_clock"}
    assert (status["session"]["state"], status["session"]["seconds_left"]) == ("timed_out", 0.0)
    assert [t["content"] for t in status["thoughts"]] == ["A slow thought."]
    assert ThinkSession.objects.get(session_id="s", state="discarded").timed_out_reason == "wall_clock"
    assert exists.value.code == "session_exists"
    assert discarded["session"]["state"] == "discarded"
    assert restarted["session"]["state"] == "thinking" and restarted["session"]["seconds_left"] > 80


def test_the_wall_clock_setting_is_read_when_a_session_starts(team, settings, age):
    settings.HELIX_THINK_MAX_SECONDS = 5
    think_start(actor=team["writer"], session_id="short", initial_thought="Quick.")
    settings.HELIX_THINK_MAX_SECONDS = 90
    age("short", seconds=6)

    error = timed_out(lambda: think_add(actor=team["writer"], session_id="short", content="Over."))

    assert error.details["reason"] == "wall_clock"
    assert think_status(actor=team["writer"], session_id="short")["session"]["limits"]["max_seconds"] == 5


def test_past_the_thought_budget_the_session_times_out(team, settings):
    settings.HELIX_THINK_MAX_THOUGHTS = 3
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="One.")
    think_add(actor=writer, session_id="s", content="Two.")
    last = think_add(actor=writer, session_id="s", content="Three.")

    error = timed_out(lambda: think_add(actor=writer, session_id="s", content="Four."))
    again = timed_out(lambda: think_add(actor=writer, session_id="s", content="Four, again."))
    status = think_status(actor=writer, session_id="s")

    assert last["session"]["thoughts_left"] == 0
    assert error.details["reason"] == again.details["reason"] == "thought_count"
    assert (status["session"]["state"], status["session"]["thought_count"]) == ("timed_out", 3)
    assert search_incomplete_thoughts(actor=writer)["sessions"][0]["state"] == "timed_out"


def test_a_conclusion_needs_room_in_the_budget_too(team, settings):
    settings.HELIX_THINK_MAX_THOUGHTS = 2
    think_start(actor=team["writer"], session_id="s", initial_thought="One.")
    think_add(actor=team["writer"], session_id="s", content="Two.")

    error = timed_out(lambda: think_conclude(actor=team["writer"], session_id="s", conclusion="Three."))

    assert error.details["reason"] == "thought_count"


def test_recall_brings_in_only_what_the_budget_still_holds(team, bob_memories, settings):
    settings.HELIX_THINK_MAX_THOUGHTS = 3
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="What do we know about bob?")

    recalled = think_recall(actor=writer, session_id="s", query="staging deploys database", parent_idx=0, limit=5)

    assert recalled["count"] == 2 and recalled["session"]["thoughts_left"] == 0


def test_a_decided_session_that_timed_out_writes_nothing(team, age):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="Should bob switch to tea?")
    think_conclude(actor=writer, session_id="s", conclusion="Bob should switch to green tea.")
    age("s", seconds=120)
    runs = IngestRun.objects.count()

    timed_out(lambda: think_commit(actor=writer, session_id="s", user_id="bob", group_id="team"))

    assert not Memory.objects.filter(content__icontains="green tea").exists()
    assert IngestRun.objects.count() == runs
    assert think_status(actor=writer, session_id="s")["session"]["state"] == "timed_out"

"""The sweep marks sessions past their wall clock timed out and deletes ended ones after the
retention window; the worker runs it on a schedule."""

from __future__ import annotations

import importlib

import pytest
from django_q.models import Schedule

from memory.fastthink.models import ThinkSession, Thought
from memory.fastthink.selectors import think_status
from memory.fastthink.services import think_commit, think_conclude, think_discard, think_start
from memory.fastthink.tasks import think_sweep
from memory.models import Memory

pytestmark = pytest.mark.django_db


def test_the_sweep_times_out_running_sessions_past_their_wall_clock(team, age):
    writer = team["writer"]
    think_start(actor=writer, session_id="late", initial_thought="Forgotten.")
    think_start(actor=writer, session_id="decided-late", initial_thought="Decided, never committed.")
    think_conclude(actor=writer, session_id="decided-late", conclusion="Bob likes rain.")
    think_start(actor=writer, session_id="fresh", initial_thought="Still thinking.")
    age("late", seconds=100)
    age("decided-late", seconds=100)

    swept = think_sweep()
    again = think_sweep()

    states = dict(ThinkSession.objects.values_list("session_id", "state"))
    assert states == {"late": "timed_out", "decided-late": "timed_out", "fresh": "thinking"}
    assert (swept, again) == ({"timed_out": 2, "deleted": 0}, {"timed_out": 0, "deleted": 0})
    assert think_status(actor=writer, session_id="late")["session"]["timed_out_reason"] == "wall_clock"


def test_the_sweep_deletes_ended_sessions_after_the_retention_window_and_keeps_committed_memories(team, age):
    writer = team["writer"]
    for name in ("dropped", "committed", "recent"):
        think_start(actor=writer, session_id=name, initial_thought=f"{name} thought.")
    think_discard(actor=writer, session_id="dropped")
    think_conclude(actor=writer, session_id="committed", conclusion="Bob's laptop is a ThinkPad X1.")
    memory_id = think_commit(actor=writer, session_id="committed", user_id="bob", group_id="team")["memory_id"]
    think_start(actor=writer, session_id="timed-out", initial_thought="Too slow.")
    think_discard(actor=writer, session_id="recent")
    age("timed-out", seconds=25 * 3600)  # past its clock a day ago: timed out now, deleted on a later sweep
    for name in ("dropped", "committed"):
        age(name, seconds=25 * 3600)

    first = think_sweep()
    age("timed-out", seconds=25 * 3600)
    second = think_sweep()

    assert first == {"timed_out": 1, "deleted": 2}
    assert second == {"timed_out": 0, "deleted": 1}
    assert list(ThinkSession.objects.values_list("session_id", flat=True)) == ["recent"]
    assert Thought.objects.count() == 1
    assert Memory.objects.filter(pk=memory_id).exists()


def test_the_worker_runs_the_sweep_on_a_schedule(db):
    schedule = Schedule.objects.get(func="memory.fastthink.tasks.think_sweep")
    module, name = schedule.func.rsplit(".", 1)

    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == (Schedule.MINUTES, 5, -1)
    assert getattr(importlib.import_module(module), name) is think_sweep

"""A buffered write whose task never reached the worker's queue (Redis away when it was accepted)
is queued again by the sweep, once it has waited HELIX_REQUEUE_AFTER_SECONDS, and stored once.
Here the queue runs inline; dropping the captured after-commit callbacks is the task that never
reached it. Redis itself: tests/helixsite/test_redis_broker.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.brokers import get_broker
from django_q.models import Schedule
from django_q.signing import SignedPackage

from memory.models import Memory
from memory.outbox.models import PendingInput
from memory.outbox.selectors import add_status_get
from memory.services.requeue import stranded_requeue

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("buffered")]


@pytest.fixture
def long_ago(settings):
    return timezone.now() - timedelta(seconds=settings.HELIX_REQUEUE_AFTER_SECONDS + 1)


def test_a_write_whose_task_never_reached_the_queue_is_queued_again_and_stored_once(
    submit, team, long_ago, django_capture_on_commit_callbacks
):
    accepted, _never_queued = submit("I live in Lisbon.", run=False)
    pending = PendingInput.objects.filter(pk=accepted["pending_id"])
    assert stranded_requeue()["pending_inputs"] == 0, "too early: its task may still be on its way"
    pending.update(created_at=long_ago)

    with django_capture_on_commit_callbacks(execute=True):  # the test settings run tasks inline
        swept = stranded_requeue()
    again = stranded_requeue()

    status = add_status_get(actor=team["writer"], pending_id=accepted["pending_id"])
    assert (swept["pending_inputs"], again["pending_inputs"]) == (1, 0)
    assert (status["status"], pending.get().attempts) == ("done", 1)
    assert Memory.objects.filter(content="bob lives in Lisbon.").count() == 1


def test_a_write_queued_again_waits_as_long_again_before_the_next_try(
    submit, long_ago, django_capture_on_commit_callbacks
):
    accepted, _never_queued = submit("I live in Lisbon.", run=False)
    pending = PendingInput.objects.filter(pk=accepted["pending_id"])
    pending.update(created_at=long_ago, requeued_at=timezone.now())
    assert stranded_requeue()["pending_inputs"] == 0

    pending.update(requeued_at=long_ago)
    with django_capture_on_commit_callbacks() as queued:
        swept = stranded_requeue()

    assert swept["pending_inputs"] == 1 and len(queued) == 1
    assert pending.get().status == "queued" and pending.get().requeued_at > long_ago


def test_nothing_is_queued_again_while_the_workers_are_behind(submit, long_ago, django_capture_on_commit_callbacks):
    """A task waiting longer than the delay: the workers are late, the tasks are in the queue."""
    accepted, _never_queued = submit("I live in Lisbon.", run=False)
    PendingInput.objects.filter(pk=accepted["pending_id"]).update(created_at=long_ago)
    broker = get_broker()
    broker.enqueue(SignedPackage.dumps({"id": "late", "name": "late", "func": "math.floor", "started": long_ago}))

    behind = stranded_requeue()
    broker.purge_queue()
    with django_capture_on_commit_callbacks(execute=True):
        caught_up = stranded_requeue()

    assert (behind["pending_inputs"], caught_up["pending_inputs"]) == (0, 1)
    assert PendingInput.objects.get(pk=accepted["pending_id"]).status == "done"


def test_the_sweep_runs_every_five_minutes():
    schedule = Schedule.objects.get(func="memory.tasks.stranded_requeue")

    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == ("I", 5, -1)

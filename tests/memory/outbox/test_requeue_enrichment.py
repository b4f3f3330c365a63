"""A stored add's enrichment (concepts, categories, entity vectors: the worker's task after the
commit) whose task never reached the queue (Redis away) is queued again by the stranded-work sweep,
once it has waited HELIX_REQUEUE_AFTER_SECONDS, and done once. The queue runs inline here; dropping
the captured after-commit callbacks is the task that never reached it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.models import IngestRun, Memory
from memory.services.requeue import stranded_requeue

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_ago(settings):
    return timezone.now() - timedelta(seconds=settings.HELIX_REQUEUE_AFTER_SECONDS + 1)


def test_an_enrichment_whose_task_never_reached_the_queue_is_queued_again_and_done_once(
    submit, long_ago, django_capture_on_commit_callbacks
):
    """A stored (not buffered) add: the memory stands at once; its enrichment (concepts,
    categories) is the task that was lost, marked due on its run until the worker has done it."""
    stored, _never_queued = submit("I won the chess final in Porto.", run=False)
    memory = Memory.objects.get(pk=stored["memory_ids"][0])
    run = IngestRun.objects.filter(pk=memory.run_id)
    assert run.get().enrichment_due_at is not None and not memory.concepts.exists()
    assert stranded_requeue()["enrichments"] == 0, "too early: its task may still be on its way"
    run.update(enrichment_due_at=long_ago)

    with django_capture_on_commit_callbacks(execute=True):  # the test settings run tasks inline
        swept = stranded_requeue()
    again = stranded_requeue()

    assert (swept["enrichments"], again["enrichments"]) == (1, 0)
    assert run.get().enrichment_due_at is None
    assert "achievement" in set(memory.concepts.values_list("name", flat=True))


def test_an_enrichment_done_in_time_leaves_nothing_to_queue_again(submit, long_ago):
    stored = submit("I won the chess final in Porto.")
    run = IngestRun.objects.filter(pk=Memory.objects.get(pk=stored["memory_ids"][0]).run_id)
    assert run.get().enrichment_due_at is None
    assert stranded_requeue()["enrichments"] == 0

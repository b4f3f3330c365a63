"""Work recorded in the database whose task never reached the worker's queue, queued again.

A request records its work, commits, and then hands the task to the queue. With the queue on
Redis (HELIX_QUEUE_URL), Redis can be away while the database is not: the work stays recorded (a
buffered write queued in the outbox, a profile marked stale, a stored message's enrichment marked
due on its run) and its task is nowhere (``helixsite.task_broker.task_enqueue`` logs it). A task
can also be lost once queued (a Redis restarted without persistence). The sweep (schedule
``queue: requeue stranded work``, every 5 minutes; due while Redis is away, so it runs as soon as a
cluster's scheduler reaches Redis again) queues such work again once it has waited
HELIX_REQUEUE_AFTER_SECONDS. The tasks are idempotent, so at least once is enough.

While the clusters are behind (a task has waited in line longer than that), it does nothing: the
tasks are in the queue, only late, and queueing them again would make the line longer.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from helixsite.queue_url import QueueUnreachable
from helixsite.task_broker import queue_behind
from memory.ingest.conductor import enrichments_requeue
from memory.profiles import profiles_requeue_stale
from memory.services.add import pending_adds_requeue

BATCH = 1000  # of each kind per sweep, the longest waiting first; the next sweep takes more


def stranded_requeue(*, now: datetime | None = None) -> dict[str, int]:
    """Queue again what waited too long for a task that never came: how many of each kind."""
    seconds = settings.HELIX_REQUEUE_AFTER_SECONDS
    try:
        if queue_behind(seconds=seconds):
            return {"pending_inputs": 0, "profiles": 0, "enrichments": 0}
    except QueueUnreachable:  # gone again since this task was taken; the clusters report it
        return {"pending_inputs": 0, "profiles": 0, "enrichments": 0}
    before = (now or timezone.now()) - timedelta(seconds=seconds)
    return {
        "pending_inputs": len(pending_adds_requeue(before=before, limit=BATCH)),
        "profiles": profiles_requeue_stale(before=before, limit=BATCH),
        "enrichments": enrichments_requeue(before=before, limit=BATCH),
    }

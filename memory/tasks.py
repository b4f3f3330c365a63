"""Background tasks of the memory domain. They take ids, call services, and are idempotent."""

from __future__ import annotations

import uuid

from helixsite.db import conflicts
from memory.ingest.enrich import enrich_runs
from memory.lifecycle import lifecycle_sweep as memory_lifecycle_sweep
from memory.models import IngestRun, Memory
from memory.profiles import profile_refresh as memory_profile_refresh
from memory.profiles import profiles_touch_memories
from memory.search.corpus import corpus_fold as search_corpus_fold
from memory.services.add import pending_add_run
from memory.services.requeue import stranded_requeue as queue_stranded_requeue
from memory.vector_indexes import owner_indexes_refresh as vector_owner_indexes_refresh


def memory_enrich(*run_ids: str) -> None:
    """The runs of one add (or of one add_conversation's messages, in order). Enrichment is
    idempotent, so a transaction PostgreSQL chose to give way in a deadlock (beside the server's
    writes or another worker's enrichment of the same owner) is run again at once, not left for
    the queue's retry minutes later."""
    ids = [uuid.UUID(run_id) for run_id in run_ids]
    conflicts.run_again_on_deadlock(lambda: enrich_runs(run_ids=ids), what=f"Enrichment of {run_ids[0]}")
    changed = [
        memory_id
        for result in IngestRun.objects.filter(pk__in=run_ids).values_list("result", flat=True)
        for key in ("memory_ids", "updated", "superseded")
        for memory_id in result.get(key, [])
    ]
    profiles_touch_memories(Memory.objects.filter(id__in=changed).only("user_id", "visible_in"))
    IngestRun.objects.filter(pk__in=run_ids).update(enrichment_due_at=None)  # done: nothing to queue again


def pending_input_run(pending_id: str) -> None:
    pending_add_run(pending_id=pending_id)


def stranded_requeue() -> dict[str, int]:
    """Every 5 minutes (migration outbox.0004): buffered writes and profile refreshes whose task
    never reached the queue."""
    return queue_stranded_requeue()


def profile_refresh(profile_id: int) -> None:
    memory_profile_refresh(profile_id=profile_id)


def lifecycle_sweep() -> dict[str, int]:
    return memory_lifecycle_sweep()


def corpus_fold() -> int:
    return search_corpus_fold()


def owner_indexes_refresh() -> dict[str, int]:
    return vector_owner_indexes_refresh()

"""Background tasks of the memory domain. They take ids, call services, and are idempotent."""

from __future__ import annotations

import uuid

from memory.ingest.enrich import enrich_run
from memory.lifecycle import lifecycle_sweep as memory_lifecycle_sweep
from memory.models import IngestRun, Memory
from memory.profiles import profile_refresh as memory_profile_refresh
from memory.profiles import profiles_touch_memories
from memory.search.corpus import corpus_fold as search_corpus_fold
from memory.services.add import pending_add_run
from memory.services.requeue import stranded_requeue as queue_stranded_requeue


def memory_enrich(run_id: str) -> None:
    enrich_run(run_id=uuid.UUID(run_id))
    run = IngestRun.objects.filter(pk=run_id).first()
    if run is not None:
        changed = [*run.result.get("memory_ids", []), *run.result.get("updated", []), *run.result.get("superseded", [])]
        profiles_touch_memories(Memory.objects.filter(id__in=changed).only("user_id", "visible_in"))
        IngestRun.objects.filter(pk=run_id).update(enrichment_due_at=None)  # done: nothing to queue again


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

"""Background tasks of the memory domain. They take ids, call services, and are idempotent."""

from __future__ import annotations

import uuid

from memory.ingest.enrich import enrich_run
from memory.services.add import pending_add_run
from memory.services.lifecycle import lifecycle_sweep as memory_lifecycle_sweep


def memory_enrich(run_id: str) -> None:
    enrich_run(run_id=uuid.UUID(run_id))


def pending_input_run(pending_id: str) -> None:
    pending_add_run(pending_id=pending_id)


def lifecycle_sweep() -> dict[str, int]:
    return memory_lifecycle_sweep()

"""Background tasks of the outbox. They take ids, call services, and are idempotent."""

from __future__ import annotations

from memory.outbox import services


def pending_input_run(pending_id: str) -> None:
    services.pending_input_run(pending_id=pending_id)


def outbox_prune() -> dict[str, int]:
    return services.outbox_prune()

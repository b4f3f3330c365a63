"""Background tasks of the outbox. They take ids, call services, and are idempotent."""

from __future__ import annotations

from memory.outbox import services


def outbox_prune() -> dict[str, int]:
    return services.outbox_prune()

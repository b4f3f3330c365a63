"""Background tasks of FastThink. They call services and are idempotent."""

from __future__ import annotations

from memory.fastthink.services import think_sessions_sweep


def think_sweep() -> dict[str, int]:
    """Run by the schedule the migration 0002_sweep_schedule creates (every 5 minutes)."""
    return think_sessions_sweep()

"""Background tasks of presence. Scheduled every minute (migration 0002); idempotent."""

from __future__ import annotations

from rbac.presence.services import agent_instances_expire, agent_instances_purge


def presence_expire() -> dict[str, int]:
    """End instances not seen for HELIX_PRESENCE_STALE_SECONDS, then delete those ended
    more than HELIX_PRESENCE_RETENTION_DAYS ago. The counts are kept as the task's result."""
    return {"ended": agent_instances_expire(), "deleted": agent_instances_purge()}

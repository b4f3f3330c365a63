"""Background tasks of the categories: they take ids, call a service, and are idempotent."""

from __future__ import annotations

from memory.categories.services import atlas_snapshot_take


def atlas_refresh() -> None:
    """Every 5 minutes (a django-q2 schedule): the snapshot the room's atlas draws."""
    atlas_snapshot_take()

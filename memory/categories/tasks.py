"""Background tasks of the categories: they take ids, call a service, and are idempotent."""

from __future__ import annotations

from memory.categories import counts
from memory.categories.services import atlas_snapshot_take


def atlas_refresh() -> None:
    """Every 5 minutes (a django-q2 schedule): the snapshot the room's atlas draws."""
    atlas_snapshot_take()


def counts_fold() -> None:
    """Every minute (a django-q2 schedule): the category counts' pending changes, folded."""
    counts.counts_fold()

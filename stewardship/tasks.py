"""Background tasks of the control room: they call a service and are idempotent."""

from __future__ import annotations

from stewardship.owner_counts import owner_counts_fold as fold_owner_counts
from stewardship.services import counts_snapshot_take


def counts_refresh() -> None:
    """Every 5 minutes (a django-q2 schedule): the counts the observatory shows."""
    counts_snapshot_take()


def owner_counts_fold() -> None:
    """Every minute (a django-q2 schedule): the owners' counts' pending changes, folded."""
    fold_owner_counts()

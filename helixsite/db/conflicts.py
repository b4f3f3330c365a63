"""A transaction PostgreSQL chose to end so that another could go on: a deadlock's victim.

Two transactions each waiting for a row the other wrote (two calls into one workspace making the
same entities in their messages in a different order) cannot both go on; after
``deadlock_timeout`` the server ends one of them with ``deadlock_detected``. What it wrote is undone
and its locks go with it, so the same work run again, once what it holds is let go, finds the other
done or waits for it. A writer whose work may be run again does so a few times at once, rather than
answering the caller with an error that says nothing about its input.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import utils as django_db

logger = logging.getLogger(__name__)
T = TypeVar("T")

DEADLOCK = "40P01"  # deadlock_detected
ATTEMPTS = 4  # the first, and three more
PAUSE_SECONDS = 0.05  # times the attempt before the next: the other transaction ends meanwhile


def gave_way(exc: BaseException) -> bool:
    """Whether ``exc`` (Django's wrapper of the driver's error) ended its transaction in a deadlock."""
    return isinstance(exc, django_db.OperationalError) and getattr(exc.__cause__, "sqlstate", None) == DEADLOCK


def run_again_on_deadlock(work: Callable[[], T], *, what: str) -> T:
    """``work()`` (a transaction of its own, which a deadlock undoes whole), run again at once
    while PostgreSQL ends it in a deadlock, up to ``ATTEMPTS`` in all; ``what`` names it in the log."""
    for attempt in range(1, ATTEMPTS):
        try:
            return work()
        except django_db.OperationalError as exc:
            if not gave_way(exc):
                raise
            logger.warning("%s gave way in a deadlock; running it again (%d).", what, attempt)
            time.sleep(PAUSE_SECONDS * attempt)
    return work()

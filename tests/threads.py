"""Running calls at the same moment on threads of their own, each with its own database connection."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from django.db import connection


def run_together(calls) -> list:
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def worker(index: int, call) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@contextlib.contextmanager
def write_lock_held(*, scope: str, user_id: str) -> Iterator[None]:
    """Hold, on the test's own connection, the advisory lock ``memory.ingest.apply`` takes for one
    owner's writes in one write domain: a write for that owner waits on it inside its transaction."""
    key = f"memory-write|{scope}|{user_id}"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [key])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [key])

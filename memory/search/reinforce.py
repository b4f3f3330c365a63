"""Recall reinforces what it returns: each memory's access count and last access, written by the
search itself in a short transaction of its own, so every process of an installation counts in
the same rows and a process that dies takes no counts with it.

The commit does not wait for the write-ahead log to reach the disk (``synchronous_commit`` off,
for this transaction only): a crash of the database itself can lose the last fraction of a
second of counts, never anything else, and a search does not pay for a disk flush."""

from __future__ import annotations

import uuid
from collections import Counter

from django.db import connection, transaction


def reinforce(ids: list[uuid.UUID]) -> int:
    """Count one access for each of ``ids``; the number of memories counted."""
    if not ids:
        return 0
    counts = Counter(ids)
    own_transaction = not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        if own_transaction:  # inside a caller's transaction, its commit is its own to make
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        cursor.execute(
            """INSERT INTO memory_memoryaccess (memory_id, access_count, last_accessed_at)
               SELECT c.id, c.hits, now() FROM unnest(%s::uuid[], %s::int[]) AS c(id, hits)
               WHERE EXISTS (SELECT 1 FROM memory_memory m WHERE m.id = c.id)
               ORDER BY c.id
               ON CONFLICT (memory_id) DO UPDATE
               SET access_count = memory_memoryaccess.access_count + excluded.access_count,
                   last_accessed_at = excluded.last_accessed_at""",
            [list(counts), list(counts.values())],
        )
    return len(counts)

"""Recall reinforces what it returns: each memory's access count and last access, in the database,
so every process of an installation counts in the same rows.

The counts are a tally (``helixsite.tally``): in a web server each process sums them and writes
them together about once a second, elsewhere each search writes its own at once. Either way the
write is one statement in a short transaction whose commit does not wait for the write-ahead log
to reach the disk (``synchronous_commit`` off, for this transaction only): a crash can lose the
last moments of counts, never anything else, and no search pays for a disk flush. A memory
erased before its counts are written is not counted."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from helixsite.tally import Tally

Accesses = tuple[int, datetime]
"""How many times a memory was returned, and when last."""


def reinforce(ids: list[uuid.UUID]) -> None:
    """Count one access for each of ``ids`` (a memory listed twice, two)."""
    now = timezone.now()
    ACCESSES.add({memory_id: (hits, now) for memory_id, hits in Counter(ids).items()})


def _merged(held: Accesses, new: Accesses) -> Accesses:
    return held[0] + new[0], max(held[1], new[1])


def _write(counted: dict[uuid.UUID, Accesses]) -> None:
    ids = sorted(counted)  # one order for every writer: concurrent upserts cannot deadlock
    own_transaction = not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        if own_transaction:  # inside a caller's transaction, its commit is its own to make
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        cursor.execute(
            """INSERT INTO memory_memoryaccess (memory_id, access_count, last_accessed_at)
               SELECT c.id, c.hits, c.at FROM unnest(%s::uuid[], %s::int[], %s::timestamptz[]) AS c(id, hits, at)
               WHERE EXISTS (SELECT 1 FROM memory_memory m WHERE m.id = c.id)
               ORDER BY c.id
               ON CONFLICT (memory_id) DO UPDATE
               SET access_count = memory_memoryaccess.access_count + excluded.access_count,
                   last_accessed_at = greatest(memory_memoryaccess.last_accessed_at, excluded.last_accessed_at)""",
            [ids, [counted[i][0] for i in ids], [counted[i][1] for i in ids]],
        )


ACCESSES: Tally[uuid.UUID, Accesses] = Tally("memory access counts", merge=_merged, write=_write)

"""The compaction after an erasure (``manage.py erasure_compact``) on BENCH_COMPACT_MEMORIES
(default 100,000) memories, and what it makes a reader wait.

The memories are the restore benchmark's (200 owners, 500 each, one workspace; loaded if missing),
so the two share a database: ``HELIX_DB_NAME=helixsite_restore python -m bench compact``.
BENCH_COMPACT_ERASED (default 5) owners are erased, then every table an erasure touches is
compacted as the command does it (the audit line included), while a reader on a connection of its
own asks for one kept memory by id over and over: its longest wait is how long the lock on the
memories' table held reads up. Also given: each table's time and size before and after, and the
WAL the compaction wrote (a rewrite is logged in full)."""

from __future__ import annotations

import contextlib
import os
import threading
import time

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Count

from bench.restore import WORKSPACE, memories_top_up
from bench.setup import prepared
from helixsite.db.outage import connect_directly
from memory.models import Memory
from stewardship import erasure

READ = "SELECT content FROM memory_memory WHERE id = %s"


def run() -> None:
    if settings.DATABASES["default"]["NAME"] in ("helixsite", "helixsite_bench"):
        print("skipped: it erases owners and locks tables; run it with HELIX_DB_NAME=helixsite_restore")
        return
    total = int(os.environ.get("BENCH_COMPACT_MEMORIES", "100000"))
    erased = int(os.environ.get("BENCH_COMPACT_ERASED", "5"))
    actor = prepared(workspace=WORKSPACE, principal="bench-restore")
    memories_top_up(actor, total)
    admin, _ = User.objects.get_or_create(username="bench-restore-admin", defaults={"is_superuser": True})
    by_owner = Memory.objects.values("user_id").annotate(n=Count("id")).order_by("-n", "user_id")
    owners = [row["user_id"] for row in by_owner[:erased]]  # those with most memories: 500 each at first
    started = time.perf_counter()
    for owner in owners:
        erasure.owner_erase(actor=admin, user_id=owner, workspace=None, confirm=owner)
    print(f"{len(owners)} owners ({sum(row['n'] for row in by_owner[:erased]):,} memories) erased in "
          f"{time.perf_counter() - started:.1f} s; {Memory.objects.count():,} memories left")  # fmt: skip
    kept = Memory.objects.values_list("id", flat=True).first()
    wal_before = _wal_position()
    with _reader(kept) as reads:
        compaction = erasure.erasure_compact(actor_name="bench compact")
    wal = _wal_position() - wal_before
    _report(compaction, reads, wal)


def _report(compaction, reads: list[tuple[float, float]], wal: int) -> None:
    print(f"compaction: {len(compaction.tables)} tables in {compaction.seconds:.1f} s, checkpoint "
          f"{compaction.checkpoint}, {wal / 1e6:.0f} MB of WAL written")  # fmt: skip
    for table in sorted(compaction.tables, key=lambda t: -t.seconds):
        if table.seconds >= 0.05 or table.bytes_before >= 1_000_000:
            print(f"  {table.table}: {table.seconds:.2f} s, {table.bytes_before / 1e6:.1f} → "
                  f"{table.bytes_after / 1e6:.1f} MB")  # fmt: skip
    rest = [t for t in compaction.tables if t.seconds < 0.05 and t.bytes_before < 1_000_000]
    print(f"  {len(rest)} others: {sum(t.seconds for t in rest):.2f} s together, each under 0.05 s and 1 MB")
    waits = sorted(seconds for _, seconds in reads)
    print(f"reader on memory_memory: {len(waits)} reads, median {waits[len(waits) // 2] * 1000:.1f} ms, "
          f"longest {waits[-1]:.2f} s")  # fmt: skip


@contextlib.contextmanager
def _reader(memory_id):
    """A thread reading one memory by id in a loop, on a connection of its own, until the block
    ends: (when each read started, how long it took)."""
    reads: list[tuple[float, float]] = []
    stop = threading.Event()
    params = connection.get_connection_params()

    def read() -> None:
        with contextlib.closing(connect_directly(params, timeout=10)) as conn:
            conn.autocommit = True
            while not stop.is_set():
                asked = time.perf_counter()
                conn.execute(READ, [memory_id]).fetchone()
                reads.append((asked, time.perf_counter() - asked))
                time.sleep(0.01)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield reads
    finally:
        stop.set()
        thread.join(timeout=600)


def _wal_position() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")
        return int(cursor.fetchone()[0])

"""Recall reinforces what it returns (access count, last access) without slowing the answer:
hits are counted in memory and written in one statement a few seconds later, by a thread."""

from __future__ import annotations

import threading
import uuid
from collections import Counter

from django.conf import settings
from django.db import connection


class ReinforcementBuffer:
    def __init__(self) -> None:
        self._counts: Counter[uuid.UUID] = Counter()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, ids: list[uuid.UUID]) -> None:
        with self._lock:
            self._counts.update(ids)
        if settings.HELIX_REINFORCE_FLUSH_SECONDS <= 0:
            self.flush()
        elif self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="reinforce", daemon=True)
            self._thread.start()

    def flush(self) -> int:
        with self._lock:
            counts, self._counts = self._counts, Counter()
        if not counts:
            return 0
        ids, hits = zip(*counts.items(), strict=True)
        with connection.cursor() as cursor:
            cursor.execute(
                """INSERT INTO memory_memoryaccess (memory_id, access_count, last_accessed_at)
                   SELECT c.id, c.hits, now() FROM unnest(%s::uuid[], %s::int[]) AS c(id, hits)
                   WHERE EXISTS (SELECT 1 FROM memory_memory m WHERE m.id = c.id)
                   ORDER BY c.id
                   ON CONFLICT (memory_id) DO UPDATE
                   SET access_count = memory_memoryaccess.access_count + excluded.access_count,
                       last_accessed_at = excluded.last_accessed_at""",
                [list(ids), list(hits)],
            )
        return len(ids)

    def _run(self) -> None:
        try:
            while not self._wake.wait(settings.HELIX_REINFORCE_FLUSH_SECONDS):
                self.flush()
        finally:
            connection.close()


buffer = ReinforcementBuffer()

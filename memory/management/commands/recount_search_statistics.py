"""Count BM25's corpus statistics afresh from the rows (memory.search.corpus)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from memory.search.corpus import CHUNKS, MEMORIES, corpus_recount


class Command(BaseCommand):
    help = (
        "Count the search statistics (rows, lengths and word counts per visibility set) afresh from the memories "
        "and document chunks. They are kept exact as rows change; this repairs them if they were edited by hand. "
        "Writes to each table wait while it is counted; searches go on."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for corpus in (MEMORIES, CHUNKS):
            started = time.perf_counter()
            written = corpus_recount(corpus)
            self.stdout.write(f"{corpus.table}: {written:,} counts written in {time.perf_counter() - started:.1f} s")

"""Count the categories' memories afresh from the memories and their filings (memory.categories.counts)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from memory.categories.counts import counts_recount


class Command(BaseCommand):
    help = (
        "Count how many memories each category holds (per visibility set and owner) afresh from the memories and "
        "their filings. The counts are kept exact as rows change; this repairs them if they were edited by hand. "
        "Writes of memories and filings wait while it counts; reads go on."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        written = counts_recount()
        self.stdout.write(f"categories: {written:,} counts written in {time.perf_counter() - started:.1f} s")

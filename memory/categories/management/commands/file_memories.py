"""Backfill: file the memories that are in no category yet, in batches, with a progress bar."""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.core.management.base import CommandError
from tqdm import tqdm

from helixsite.commands import ServiceCommand
from memory.categories.selectors import memories_unfiled_count, memories_unfiled_ids
from memory.categories.services import memories_file
from memory.providers import get_llm


class Command(ServiceCommand):
    help = (
        "File every live memory that is in no category yet, as enrichment files new ones: by rules "
        "(offline, deterministic), or by the configured LLM with --llm. Safe to interrupt and run again."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch-size", type=int, default=500, help="memories per batch (1–5000)")
        parser.add_argument(
            "--llm",
            action="store_true",
            help="ask the configured LLM (one call per write domain and batch; --batch-size 20 suits it)",
        )
        parser.add_argument("--limit", type=int, default=0, help="stop after this many memories (0: all)")

    def handle(self, *args, batch_size: int, llm: bool, limit: int, **options) -> None:
        if not 1 <= batch_size <= 5000:
            raise CommandError("--batch-size must be between 1 and 5000.")
        if limit < 0:
            raise CommandError("--limit must be 0 or more.")
        model = get_llm() if llm else None
        if model is not None and not model.enabled:
            raise CommandError(f"--llm needs an LLM: HELIX_LLM is {settings.HELIX_LLM}.")
        total = memories_unfiled_count()
        total = min(total, limit) if limit else total
        methods: Counter[str] = Counter()
        after = None
        with tqdm(total=total, unit="memory", file=self.stderr, disable=not total) as bar:
            while sum(methods.values()) < total:
                ids = memories_unfiled_ids(after=after, limit=min(batch_size, total - sum(methods.values())))
                if not ids:
                    break
                methods.update(memories_file(memory_ids=ids, llm=model).values())
                after = ids[-1]
                bar.update(len(ids))
        summary = ", ".join(f"{n} by {method}" for method, n in sorted(methods.items())) or "nothing to file"
        self.stdout.write(f"Filed {sum(methods.values())} memories: {summary}.")

"""Switch the installation to another embedding model while it serves (memory.reembed)."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from tqdm import tqdm

from helixsite.commands import ServiceCommand
from memory.models import ReembedJob
from memory.reembed.conductor import reembed_abort, reembed_run
from memory.reembed.target import PROVIDERS, Target, target_parse
from memory.selectors import reembed_status


class Command(ServiceCommand):
    help = (
        "Embed every memory, entity and document chunk with another embedding model, in the background while "
        "the server goes on searching and writing with the current one, then switch to the new vectors in one "
        "short transaction. Interrupted (even by kill -9), it resumes where it stopped when run again. After "
        "the switch, restart the server with the new HELIX_EMBEDDING* settings it prints."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--provider", choices=PROVIDERS, help="the new provider: local or openai")
        parser.add_argument("--model", help="the new model (openai: required; local: all-MiniLM-L6-v2)")
        parser.add_argument("--dimension", type=int, help="its vector size (openai: required; local: 384)")
        parser.add_argument("--base-url", help="the OpenAI-compatible endpoint (default HELIX_EMBEDDING_BASE_URL)")
        parser.add_argument("--batch-size", type=int, default=256, help="rows embedded and written per transaction")
        parser.add_argument(
            "--no-switch",
            action="store_true",
            help="stop once everything is embedded and indexed; run again (same target) to catch up and switch",
        )
        parser.add_argument("--status", action="store_true", help="say where the newest re-embed stands, and exit")
        parser.add_argument(
            "--abort", action="store_true", help="give up an unfinished re-embed: drop what it embedded so far"
        )

    def handle(self, *args: Any, status: bool, abort: bool, **options: Any) -> None:
        if status:
            self._status()
        elif abort:
            job = reembed_abort()
            self.stdout.write(
                self.style.SUCCESS(f"Gave up the re-embed to {job.target}; the stored vectors are as they were.")
                if job
                else "No re-embed was unfinished; removed whatever a stopped one had left."
            )
        else:
            self._run(**options)

    def _status(self) -> None:
        state = reembed_status()
        self.stdout.write(str(state))
        for key, value in state.items():
            if key not in ("status", "target", "phase", "error"):
                self.stdout.write(f"  {key}: {value}")

    def _run(
        self,
        *,
        provider: str | None,
        model: str | None,
        dimension: int | None,
        base_url: str | None,
        batch_size: int,
        no_switch: bool,
        **options: Any,
    ) -> None:
        if provider is None:
            raise CommandError("Name the new model with --provider (local or openai); or ask --status, or --abort.")
        target = target_parse(provider=provider, model=model, dimension=dimension, base_url=base_url)
        bars: list[tqdm] = []
        start: list[tuple[int, float]] = []  # rows done and the time when the embedding began

        def progress(job: ReembedJob) -> None:
            if not bars:  # a resumed run starts its bar where the last one stopped
                start[:] = [(job.done, time.monotonic())]
                bars.append(tqdm(total=job.total, initial=job.done, unit="row", file=self.stderr, mininterval=0.5))
            bars[0].total = job.total
            bars[0].set_description(job.phase or job.status, refresh=False)
            bars[0].update(job.done - bars[0].n)

        try:
            job = reembed_run(target=target, batch_size=batch_size, switch_now=not no_switch, progress=progress)
        except KeyboardInterrupt:
            raise CommandError("Stopped. Run the same command again to resume where it stopped.") from None
        finally:
            for bar in bars:
                bar.close()
        done_before, started = start[0] if start else (job.done, time.monotonic())
        self._summary(job, target, embedded=job.done - done_before, seconds=time.monotonic() - started)

    def _summary(self, job: ReembedJob, target: Target, *, embedded: int, seconds: float) -> None:
        rate = f" ({embedded / seconds:,.0f} rows/s)" if seconds > 0 and embedded else ""
        if job.status != ReembedJob.Status.DONE:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Embedded {job.done:,} rows with {target} in {seconds:,.0f} s{rate}; ready to switch. "
                    "Run the same command again (without --no-switch) to catch up what was written since and switch."
                )
            )
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Switched to {target}: {job.done:,} rows, {embedded:,} embedded by this run in "
                f"{seconds:,.0f} s{rate}; the tables were locked for {job.switch_ms or 0:,.0f} ms."
            )
        )
        configured = (settings.HELIX_EMBEDDINGS, settings.HELIX_EMBEDDING_MODEL, settings.HELIX_EMBEDDING_DIM)
        if configured == (target.provider, target.model, target.dimension):
            self.stdout.write("The configuration already names this model: nothing to restart.")
            return
        self.stdout.write("Now restart the server (web and worker) with:")
        for line in target.settings_lines():
            self.stdout.write(f"  {line}")
        self.stdout.write(
            "Until then its processes refuse searches and writes (503 embedding_space_mismatch), and /healthz says so."
        )

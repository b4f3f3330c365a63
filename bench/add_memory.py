"""add_memory latency, offline (no LLM, local embeddings), with 10,000 memories stored;
and import_jsonl throughput."""

from __future__ import annotations

import time

from bench.corpus import first_person, statements
from bench.setup import prepared
from bench.timing import percentiles
from memory.ingest.bulk import ImportRow, import_rows
from memory.services.add import memory_add

STORED = 10_000
RUNS = 150


def run() -> None:
    actor = prepared(workspace="bench", memories=STORED)
    memory_add(actor=actor, user_id="warmup", message="I like warm starts.", group_id="bench")
    for sentences in (1, 3):
        samples = []
        for i, message in enumerate(first_person(RUNS, seed=100 + sentences + int(time.time()), sentences=sentences)):
            started = time.perf_counter()
            memory_add(actor=actor, user_id=f"user{i % 20:02d}", message=message, group_id="bench")
            samples.append((time.perf_counter() - started) * 1000)
        print(
            f"add_memory, {sentences}-sentence messages, {STORED:,} stored: {percentiles(samples)} ms over {RUNS} calls"
        )
    _import_throughput(actor)


def _import_throughput(actor) -> None:
    for count, mode in ((2_000, "never"), (10_000, "always")):
        fresh = statements(count, seed=int(time.time()), owners=50)
        rows = [ImportRow(i, f"imp{user}", text, "fact", "bench", {}, None, "") for i, (user, text) in enumerate(fresh)]
        started = time.perf_counter()
        report = import_rows(actor=actor, rows=rows, batch_size=512, rebuild_index=mode)
        elapsed = time.perf_counter() - started
        index = "index dropped and rebuilt" if report.index_rebuilt else "index kept"
        print(
            f"import: {report.stored:,} memories in {elapsed:.1f} s = {report.stored / elapsed:.0f} atoms/s ({index})"
        )

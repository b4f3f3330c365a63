"""search_memory for a small and a large tenant when the table holds a million memories.

The two tenants are search_latency's (``bench-search-10000``: 10,000 memories of 200 owners;
``bench-search-100000``: 100,000 of 200 owners), loaded first if missing. The rest of the
table, up to BENCH_SCALE_TOTAL (default 1,000,000), is a crowd: 40 workspaces of 10 owners
each, loaded through import_jsonl's path (``memory.ingest.bulk.import_rows``) in one call, so
the HNSW index is dropped and built once. The crowd's texts repeat a pool of 20,000 distinct
statements, each at most once per owner, and the loader's embedder keeps a vector per distinct
text: every row still gets its text's own vector, but the model runs 20,000 times, not 900,000
(at ~260 texts/s it would take an hour of both cores).

Then each tenant answers BENCH_SCALE_QUERIES (default 200) new questions of its owners, query
embedding included, as search_latency asks them. Run it in a database of its own so the other
benchmarks keep their sizes: ``HELIX_DB_NAME=helixsite_scale python -m bench scale``."""

from __future__ import annotations

import os
import time

from tqdm import tqdm

from bench import search_latency
from bench.corpus import statements
from bench.setup import prepared, remembering_embedder
from bench.timing import percentiles
from memory.ingest import bulk
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory
from memory.search.corpus import corpus_fold

CROWD_WORKSPACES = 40
CROWD_OWNERS = 400
POOL = 20_000


def run() -> None:
    total = int(os.environ.get("BENCH_SCALE_TOTAL", "1000000"))
    queries = int(os.environ.get("BENCH_SCALE_QUERIES", "200"))
    tenants = {}
    for size in (10_000, 100_000):
        tenants[size] = prepared(workspace=f"bench-search-{size}", principal=f"bench-search-{size}")
        search_latency._top_up(tenants[size], size)
    crowd = prepared(workspace="bench-crowd-00", principal="bench-crowd")
    _crowd_top_up(crowd, total - Memory.objects.count())
    started = time.perf_counter()
    folded = corpus_fold(wait=True)
    print(f"search statistics folded ({folded:,} totals) in {time.perf_counter() - started:.1f} s")
    print(f"memories in the table: {Memory.objects.count():,}")
    for size, actor in tenants.items():
        samples = search_latency.tenant_searches(actor, size, queries)
        print(f"tenant of {size:,} memories: {percentiles(samples)} ms over {len(samples)} queries")


def _crowd_top_up(actor, missing: int) -> None:
    if missing <= 0:
        return
    for n in range(1, CROWD_WORKSPACES):
        prepared(workspace=f"bench-crowd-{n:02d}", principal="bench-crowd")
    pool = [text for _, text in statements(POOL, seed=29)]
    have = Memory.objects.filter(user_id__startswith="crowd").count()
    rows = []
    for j in range(have, have + missing):
        text_index, round_index = j % POOL, j // POOL
        owner = (text_index + round_index) % CROWD_OWNERS  # a text comes back to an owner only after 400 rounds
        rows.append(
            ImportRow(j, f"crowd{owner:03d}", pool[text_index], "fact", f"bench-crowd-{owner % CROWD_WORKSPACES:02d}",
                      {}, None, "")
        )  # fmt: skip
    started = time.perf_counter()
    with remembering_embedder(bulk), tqdm(total=len(rows), desc="crowd", unit="memory", mininterval=5) as bar:
        report = import_rows(actor=actor, rows=rows, batch_size=2000, rebuild_index="auto", progress=bar.update)
    print(
        f"crowd: {report.stored:,} memories loaded in {time.perf_counter() - started:.0f} s "
        f"({report.duplicates:,} duplicates; index rebuilt: {report.index_rebuilt})"
    )

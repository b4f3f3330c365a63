"""search_memory latency with the local embedder, query embedding included (every query is
new, so the query cache never answers), at growing corpus sizes loaded with import_jsonl's path.

Sizes come from BENCH_SEARCH_SIZES (default 10000,100000). Each size has its own workspace,
read by a principal of its own that sees nothing else, and is kept between runs."""

from __future__ import annotations

import os
import random
import time

from bench.corpus import ITEMS, PEOPLE, PLACES, TOOLS, statements
from bench.setup import prepared
from bench.timing import percentiles
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory
from memory.search.conductor import memory_search
from rbac.models import Workspace

OWNERS = 200
QUERIES = 200


def run() -> None:
    sizes = [int(s) for s in os.environ.get("BENCH_SEARCH_SIZES", "10000,100000").split(",")]
    for size in sizes:
        actor = prepared(workspace=f"bench-search-{size}", principal=f"bench-search-{size}")
        _top_up(actor, size)
        samples = tenant_searches(actor, size, QUERIES)
        print(
            f"search_memory at {_in_space(size).count():,} memories: "
            f"{percentiles(samples)} ms over {len(samples)} queries"
        )


def tenant_searches(actor, size: int, count: int) -> list[float]:
    """Milliseconds of ``count`` new questions of the tenant's owners, after one to warm up."""
    memory_search(actor=actor, query="warm up the model", user_id="user001")
    samples = []
    for user_id, query in _queries(count, seed=size + int(time.time())):
        started = time.perf_counter()
        memory_search(actor=actor, query=query, user_id=user_id)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _top_up(actor, size: int) -> None:
    have = _in_space(size).count()
    if have >= size:
        return
    rows = [
        ImportRow(i, f"user{int(u[4:]) * 10 + i % 10:03d}", text, "fact", f"bench-search-{size}", {}, None, "")
        for i, (u, text) in enumerate(statements(size, owners=20)[have:])
    ]
    started = time.perf_counter()
    report = import_rows(actor=actor, rows=rows, batch_size=1000, rebuild_index="auto")
    print(f"loaded {report.stored:,} memories in {time.perf_counter() - started:.0f} s")


def _queries(count: int, *, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    shapes = [
        "where does {u} live",
        "what does {u} like doing on {d}",
        "which tool does {u} use for {c}",
        "when did {u} meet {p}",
        "{t} cluster host for {u}",
        "notes about {i} kept by {u}",
        "ticket {c} closed",
    ]
    result = []
    for n in range(count):
        user = f"user{rng.randrange(OWNERS):03d}"
        code = f"{rng.choice('ABCDEFGH')}{rng.choice('XYZW')}-{rng.randrange(100, 99999)}"
        text = rng.choice(shapes).format(
            u=user, d="Mondays", c=code, p=rng.choice(PEOPLE), t=rng.choice(TOOLS), i=rng.choice(ITEMS)
        )
        result.append((user, f"{text} ({rng.choice(PLACES)} {n})"))
    return result


def _in_space(size: int):
    return Memory.objects.filter(rbac_scope=f"rbac:group:{Workspace.objects.get(slug=f'bench-search-{size}').id}")

"""search_memory with and without a metadata filter, over one owner's BENCH_FILTERS_SIZE (default
100,000) memories, query embedding included (every query is new).

The memories carry metadata ``colour`` (one of ten, by the row's last digit), ``priority`` (0–4)
and ``project`` (one of a hundred, by its tens, so independent of the colour), loaded once
through import_jsonl's path (``memory.ingest.bulk.import_rows``) and kept between runs. Each of
BENCH_FILTERS_QUERIES (default 200) rounds asks a new question unfiltered and under each filter,
in a shuffled order, so the variants share the machine's weather. The target
(issue 34): a filter's p95 at most 1.5 × the unfiltered one. It also shows the plan of the
filtered gathering, whose metadata equality the GIN index on ``metadata`` answers.

Its own database, so the other benchmarks keep their sizes:
``HELIX_DB_NAME=helixsite_bench_filters python -m bench filters``."""

from __future__ import annotations

import os
import random
import time

from django.conf import settings
from django.db import connection

from bench import search_latency
from bench.corpus import statements
from bench.setup import prepared
from bench.timing import percentiles
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory
from memory.search.conductor import memory_search
from memory.search.corpus import corpus_fold
from memory.search.filters import memory_filter_parse
from memory.search.scope import Scope
from rbac.models import Workspace

WORKSPACE = "bench-filters"
OWNER = "owner"
COLOURS = ("red", "blue", "green", "amber", "violet", "teal", "grey", "pink", "brown", "white")
SHARED = ("helixsite_bench", "helixsite_bench_documents")
FILTERS = {
    "colour = red (10 %)": {"metadata": {"colour": "red"}},
    "project = p07 (1 %)": {"metadata": {"project": "p07"}},
    "colour in [red, blue] AND project >= p60 (8 %)": {
        "AND": [{"metadata": {"colour": {"in": ["red", "blue"]}}}, {"metadata": {"project": {"gte": "p60"}}}]
    },
    "NOT colour = red (90 %)": {"NOT": {"metadata": {"colour": "red"}}},
}


def run() -> None:
    if settings.DATABASES["default"]["NAME"] in SHARED:
        raise SystemExit("run it in its own database: HELIX_DB_NAME=helixsite_bench_filters python -m bench filters")
    size = int(os.environ.get("BENCH_FILTERS_SIZE", "100000"))
    count = int(os.environ.get("BENCH_FILTERS_QUERIES", "200"))
    actor = prepared(workspace=WORKSPACE, principal="bench-filters")
    _top_up(actor, size)
    print(f"memories of {OWNER!r}: {_owned().count():,}")
    _show_plan(actor)
    samples = _searches(actor, count)
    plain = percentiles(samples["unfiltered"])
    print(f"unfiltered: {plain} ms over {len(samples['unfiltered'])} queries")
    for name in FILTERS:
        measured = percentiles(samples[name])
        print(f"{name}: {measured} ms; p95 = {measured['p95'] / plain['p95']:.2f} × unfiltered")


def _owned():
    space = Workspace.objects.get(slug=WORKSPACE)
    return Memory.objects.filter(rbac_scope=f"rbac:group:{space.id}", user_id=OWNER)


def _top_up(actor, size: int) -> None:
    have = _owned().count()
    if have >= size:
        return
    rows = [
        ImportRow(i, OWNER, text, "fact", WORKSPACE, _metadata(i), None, "")
        for i, (_, text) in enumerate(statements(size, seed=41)[have:], start=have)
    ]
    started = time.perf_counter()
    report = import_rows(actor=actor, rows=rows, batch_size=2000, rebuild_index="auto")
    folded = corpus_fold(wait=True)
    print(
        f"loaded {report.stored:,} memories in {time.perf_counter() - started:.0f} s "
        f"(index rebuilt: {report.index_rebuilt}; {folded:,} search totals folded)"
    )


def _metadata(i: int) -> dict:
    return {"colour": COLOURS[i % len(COLOURS)], "priority": i % 5, "project": f"p{(i // 10) % 100:02d}"}


def _show_plan(actor) -> None:
    """The plan of the filtered gathering (the first statement of a filtered search's seeds)."""
    scope = Scope.of(actor, OWNER, filters=memory_filter_parse(FILTERS["project = p07 (1 %)"]))
    where, params = scope.sql()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN SELECT m.id FROM memory_memory m WHERE {where} LIMIT 2001", params)
        plan = [line for (line,) in cursor.fetchall()]
    index = "memory_metadata_gin" if any("memory_metadata_gin" in line for line in plan) else "no metadata index"
    print(f"filtered gathering reads through: {index}")
    print("\n".join(f"    {line}" for line in plan))


def _searches(actor, count: int) -> dict[str, list[float]]:
    variants = {"unfiltered": None, **{name: memory_filter_parse(raw) for name, raw in FILTERS.items()}}
    for parsed in variants.values():  # the model, and each variant's first gathering
        memory_search(actor=actor, query="warm up the model", user_id=OWNER, filters=parsed)
    samples: dict[str, list[float]] = {name: [] for name in variants}
    short = dict.fromkeys(variants, 0)  # searches that found fewer than a full page
    rng = random.Random(5)
    # A question of its own for each variant: the query embedding's cache never answers.
    questions = [query for _, query in search_latency._queries(count * len(variants), seed=int(time.time()))]
    for round_ in range(count):
        order = list(variants)
        rng.shuffle(order)
        for n, name in enumerate(order):
            query = questions[round_ * len(variants) + n]
            started = time.perf_counter()
            found = memory_search(actor=actor, query=query, user_id=OWNER, filters=variants[name])
            samples[name].append((time.perf_counter() - started) * 1000)
            short[name] += len(found["results"]) < 10
    for name, count_short in short.items():
        if count_short:
            print(f"  {name}: {count_short} of {count} searches found fewer than 10 results")
    return samples

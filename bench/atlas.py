"""The category atlas on a large installation: the backfill filing every memory by the rules,
the snapshot the schedule takes every 5 minutes, the atlas page (whole, filtered, focused) and
its drill-down (first and a later page) through Django's test client as a logged-in global
admin, and the agents' list_categories and search_memory(category=…).

The corpus is search_latency's (``BENCH_ATLAS_SIZE``, default 300000 memories, loaded once and
kept, shared with room_pages); filing is kept too, so a second run measures only the reads."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from urllib.parse import unquote

from django.core.management import call_command
from django.test import Client

from bench.room_pages import _steward
from bench.search_latency import _in_space, _queries, _top_up
from bench.setup import prepared
from bench.timing import percentiles, sample_ms
from memory.categories.counts import counts_fold
from memory.categories.selectors import category_list, memories_unfiled_count
from memory.categories.services import atlas_snapshot_take
from memory.search.conductor import memory_search
from memory.search.corpus import corpus_fold

RUNS = 20


def run() -> None:
    size = int(os.environ.get("BENCH_ATLAS_SIZE", "300000"))
    actor = prepared(workspace=f"bench-search-{size}", principal=f"bench-search-{size}")
    _top_up(actor, size)
    _backfill()
    # As the worker does every minute: a load or a backfill run without one leaves deltas pending.
    folded = time.perf_counter()
    counts_fold(wait=True)
    corpus_fold(wait=True)
    print(f"category counts and search statistics folded in {(time.perf_counter() - folded) * 1000:.0f} ms")
    started = time.perf_counter()
    snapshot = atlas_snapshot_take()
    taken_s = time.perf_counter() - started
    call_command("collectstatic", interactive=False, verbosity=0)  # pages name the hashed static files
    browser = Client(HTTP_HOST="localhost")
    browser.force_login(_steward())
    largest = snapshot.categories[0]["path"] if snapshot.categories else "general"
    owner = snapshot.memories[0]["owner"] if snapshot.memories else "user001"
    later = _later_cursor(browser, largest)
    queries = iter(_queries(2 * (RUNS + 3), seed=size))

    def page(params: dict) -> None:
        assert browser.get("/steward/atlas/", params).status_code == 200

    def drill(params: dict) -> None:
        response = browser.get("/steward/atlas/", params, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="atlas-drill")
        assert response.status_code == 200

    def search(*, personal: bool = True) -> None:
        user_id, query = next(queries)
        scope = {"user_id": user_id} if personal else {"scope": "all"}
        memory_search(actor=actor, query=query, category=largest, **scope)

    print(
        f"atlas at {_in_space(size).count():,} memories in the space, {snapshot.memory_total:,} filed, "
        f"{snapshot.category_total} categories; {RUNS} requests each:"
    )
    print(f"  {'snapshot (the 5-minute schedule)':<36} {taken_s * 1000:.0f} ms")
    report("atlas page, everything", lambda: page({}))
    report("atlas page, one owner", lambda: page({"owner": owner}))
    report(f"atlas page, focus {largest}", lambda: page({"focus": largest}))
    report("atlas page, a query", lambda: page({"q": "cluster"}))
    report("drill-down, first page", lambda: drill({"category": largest}))
    report("drill-down, fifth page", lambda: drill({"category": largest, "cursor": later}))
    report("list_categories (a worker)", lambda: category_list(actor=actor, limit=100))
    report("search_memory(category=…)", search)
    report("search_memory(category=…), whole space", lambda: search(personal=False))


def report(label: str, operation: Callable[[], object]) -> None:
    print(f"  {label:<36} {percentiles(sample_ms(operation, runs=RUNS))} ms")


def _backfill() -> None:
    unfiled = memories_unfiled_count()
    if not unfiled:
        return
    started = time.perf_counter()
    call_command("file_memories", batch_size=2000)
    took = time.perf_counter() - started
    print(f"filed {unfiled:,} memories by rules in {took:.0f} s ({unfiled / took:,.0f}/s)")


def _later_cursor(browser: Client, path: str) -> str:
    """The cursor of the drill-down's fifth page, followed page by page as an admin would."""
    cursor = ""
    for _ in range(4):
        params = {"category": path, **({"cursor": cursor} if cursor else {})}
        html = browser.get("/steward/atlas/", params, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="atlas-drill")
        found = re.search(r"cursor=([^\"&]+)", html.content.decode())
        if found is None:
            break
        cursor = unquote(found.group(1).replace("&amp;", "&"))
    return cursor

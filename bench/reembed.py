"""manage.py reembed throughput with the local model: every memory, entity and document chunk of
the database embedded again (all-MiniLM-L6-v2 again: the rows/s are those of a switch to a model
as fast) into the next column, its HNSW index built, and the switch, with how long it held the
tables; meanwhile a thread searches without pause, as an agent would, and its latencies and
failures are reported against the same searches before the run.

A re-embed covers the whole installation, not one workspace. So this benchmark wants a database
of its own: ``BENCH_REEMBED_MEMORIES`` (default 3000) synthetic memories are kept in the workspace
bench-reembed, and it declines to run where the database holds more than three times as many
rows (the shared helixsite_bench, with the search benchmark's 110,000 memories, would take most
of an hour). Run it as ``HELIX_DB_NAME=helixsite_bench_reembed python -m bench reembed``.
``BENCH_REEMBED_BATCH`` sets the rows per batch (default 256, the command's)."""

from __future__ import annotations

import itertools
import os
import threading
import time

from django.conf import settings
from django.db import connection

from bench.corpus import PLACES, TOOLS
from bench.setup import prepared
from bench.timing import percentiles
from memory.embedding_space import embedding_space_ensure
from memory.models import Entity, Memory, ReembedJob
from memory.reembed import schema
from memory.reembed.conductor import reembed_run
from memory.reembed.target import Target
from memory.search.conductor import memory_search


def run() -> None:
    size = int(os.environ.get("BENCH_REEMBED_MEMORIES", "3000"))
    batch = int(os.environ.get("BENCH_REEMBED_BATCH", "256"))
    actor = prepared(workspace="bench-reembed", memories=size, principal="bench-reembed")
    embedding_space_ensure()
    rows = _rows()
    if rows > 3 * size:
        print(
            f"skipped: this database holds {rows:,} rows to embed, and a re-embed takes them all; run it on a "
            "database of its own: HELIX_DB_NAME=helixsite_bench_reembed python -m bench reembed"
        )
        return
    _reembed(batch, searching=None)
    quiet = Searcher(actor)
    quiet.start()
    time.sleep(10)
    quiet.finish()
    searcher = Searcher(actor)
    _reembed(batch, searching=searcher)
    for when, thread in (("alone", quiet), ("during the run", searcher)):
        print(
            f"  search_memory {when}: {percentiles(thread.samples)} ms over {len(thread.samples)} searches, "
            f"{len(thread.failures)} failed{': ' + thread.failures[0] if thread.failures else ''}"
        )


def _reembed(batch: int, *, searching: Searcher | None) -> None:
    marks: list[tuple[str, int, float]] = []
    if searching is not None:
        searching.start()
    started = time.perf_counter()
    try:
        job = reembed_run(
            target=Target(provider="local", model="all-MiniLM-L6-v2", dimension=384),
            batch_size=batch,
            progress=lambda job: marks.append((job.phase or job.status, job.done, time.perf_counter())),
        )
    finally:
        if searching is not None:
            searching.finish()
    what = "a search thread running meanwhile" if searching else "nothing else running"
    _report(job, marks, batch=batch, total=time.perf_counter() - started, what=what)


class Searcher(threading.Thread):
    """Searches without pause, each query new (the query cache never answers), until finished."""

    def __init__(self, actor) -> None:
        super().__init__(daemon=True)
        self.actor = actor
        self.samples: list[float] = []
        self.failures: list[str] = []
        self._stop_event = threading.Event()

    def run(self) -> None:
        try:
            memory_search(actor=self.actor, query="warm up", user_id="user00", reinforce=False)
            for n in itertools.count():
                if self._stop_event.is_set():
                    return
                query = f"which {TOOLS[n % len(TOOLS)]} project does user{n % 20:02d} run in {PLACES[n % 12]} {n}"
                began = time.perf_counter()
                try:
                    memory_search(actor=self.actor, query=query, user_id=f"user{n % 20:02d}", reinforce=False)
                    self.samples.append((time.perf_counter() - began) * 1000)
                except Exception as exc:
                    self.failures.append(f"{exc.__class__.__name__}: {exc}")
        finally:
            connection.close()

    def finish(self) -> None:
        self._stop_event.set()
        self.join()


def _rows() -> int:
    with connection.cursor() as cursor:
        tables = schema.tables_present()
        cursor.execute("SELECT " + " + ".join(f"(SELECT count(*) FROM {table.name})" for table in tables))
        return int(cursor.fetchone()[0])


def _report(job: ReembedJob, marks: list[tuple[str, int, float]], *, batch: int, total: float, what: str) -> None:
    embedding = [(done, at) for phase, done, at in marks if phase == "embedding"]
    (first_done, first_at), (last_done, last_at) = embedding[0], embedding[-1]
    index = [at for phase, _, at in marks if phase == "building the vector index"][0]
    after_index = [at for _, _, at in marks if at > index][0]
    memories, entities = Memory.objects.count(), Entity.objects.count()
    print(
        f"re-embedded {job.total:,} rows ({memories:,} memories, {entities:,} entities, "
        f"{job.total - memories - entities:,} document chunks), batches of {batch}, "
        f"HELIX_EMBEDDING_THREADS={settings.HELIX_EMBEDDING_THREADS}, {what}"
    )
    rate = (last_done - first_done) / (last_at - first_at)
    print(f"  embedding and writing the next column: {rate:,.0f} rows/s")
    print(f"  HNSW index on the next column: {after_index - index:.1f} s")
    print(f"  switch: the tables locked for {job.switch_ms:.0f} ms")
    print(f"  whole run, model loading included: {total:.1f} s ({job.total / total:,.0f} rows/s)")

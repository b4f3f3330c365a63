"""The counts a call adds to and its answer does not depend on: the access counts of the memories
a search returns and the tool's usage minute. Within a call everywhere but a web server; in a
web server each process sums them and writes them about once a second, and what is summed when
it stops is written then."""

from __future__ import annotations

import contextlib
import logging
import operator
import time
from collections.abc import Iterator

import httpx2
import pytest
from django.db import DatabaseError, connections

from helixsite import tally
from helixsite.agents.models import CallMinute
from helixsite.tally import Tally, buffer_start, buffer_stop
from memory.models import MemoryAccess
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import bearer_client, grant, make_agent_with_token, make_memory, make_workspace
from tests.processes import web_server

QUESTION = {"actor_id": "scout", "user_id": "bob", "query": "what tea does Bob like?"}
WAIT_SECONDS = 120  # a bound for a busy machine, never a measure


@pytest.fixture
def searcher(transactional_db):
    """An agent with a token and one memory to find, committed: servers and threads see it."""
    principal, token = make_agent_with_token("scout")
    workspace = make_workspace("team")
    grant(principal, workspace, Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    memory = make_memory(
        author=principal,
        domain=domain,
        content="Bob's favourite tea is a smoky lapsang souchong.",
        user_id="bob",
        embed=True,
    )
    return token.raw, memory


@pytest.fixture
def buffering() -> Iterator[None]:
    """As a web server runs: summed, and written only by ``buffer_stop`` (the hour never passes)."""
    buffer_start(every=3600)
    try:
        yield
    finally:
        buffer_stop()


def counted() -> tuple[int, int]:
    """(accesses counted, search_memory calls counted), read on a connection of this thread's own."""
    try:
        accesses = sum(MemoryAccess.objects.values_list("access_count", flat=True))
        calls = sum(CallMinute.objects.filter(tool="search_memory").values_list("calls", flat=True))
        return accesses, calls
    finally:
        connections.close_all()


def search(token: str) -> None:
    response = bearer_client(token).post("/api/v1/search_memory", QUESTION, content_type="application/json")
    assert response.status_code == 200 and response.json()["count"] == 1


def test_outside_a_web_server_the_counts_are_written_within_the_call(searcher):
    token, memory = searcher

    search(token)

    assert counted() == (1, 1)


def test_buffered_counts_are_summed_and_written_together_when_buffering_stops(searcher, buffering):
    token, memory = searcher

    search(token)
    search(token)
    assert counted() == (0, 0), "summed in the process, not written yet"
    buffer_stop()

    assert counted() == (2, 2)
    access = MemoryAccess.objects.get(memory=memory)
    minute = CallMinute.objects.get(tool="search_memory")
    assert access.access_count == 2 and access.last_accessed_at is not None
    assert minute.calls == 2 and minute.errors == 0 and sum(minute.buckets) == 2


def test_the_writer_thread_writes_the_sums_while_buffering(searcher):
    token, memory = searcher
    buffer_start(every=0.05)
    try:
        search(token)
        deadline = time.monotonic() + WAIT_SECONDS
        while counted() != (1, 1) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert counted() == (1, 1), "written without waiting for the stop"
    finally:
        buffer_stop()
    assert counted() == (1, 1), "and not written twice"


def test_counts_of_a_memory_erased_before_they_are_written_are_dropped(searcher, buffering):
    token, memory = searcher

    search(token)
    memory.delete()
    buffer_stop()

    assert counted() == (0, 1)


@contextlib.contextmanager
def tally_of_its_own(*failures: Exception) -> Iterator[tuple[Tally, list[dict[str, int]]]]:
    """A tally summing as in a web server, whose first writes fail with ``failures``; with what it wrote."""
    written: list[dict[str, int]] = []
    pending = list(failures)

    def write(sums: dict[str, int]) -> None:
        if pending:
            raise pending.pop()
        written.append(dict(sums))

    counts = Tally("test counts", merge=operator.add, write=write)
    tally._buffering.set()
    try:
        yield counts, written
    finally:
        tally._buffering.clear()
        tally._tallies.remove(counts)


def test_a_write_that_fails_keeps_its_sums_for_the_next(caplog):
    with tally_of_its_own(RuntimeError("the counter's table is locked")) as (counts, written):
        counts.add({"a": 1, "b": 2})
        counts.flush()
        counts.add({"a": 3})
        counts.flush()

    assert written == [{"a": 4, "b": 2}]
    assert "could not write the test counts (2 kept for the next try)" in caplog.text


def test_while_the_database_refuses_them_the_sums_kept_are_bounded(caplog, monkeypatch):
    monkeypatch.setattr(tally, "KEEP_UNWRITTEN", 2)
    with tally_of_its_own() as (counts, written), caplog.at_level(logging.WARNING):
        counts.add({"a": 1, "b": 1, "c": 1})
        counts.add({"a": 1, "d": 1})

        assert counts._sums == {"a": 2, "b": 1}
    assert caplog.text.count("dropping test counts: 2 are waiting to be written") == 1


def test_while_the_database_is_out_of_reach_the_log_says_so_once_and_once_when_it_is_back(caplog):
    away = [DatabaseError("the database is unreachable")] * 5
    with tally_of_its_own(*away) as (counts, written), caplog.at_level(logging.INFO, logger="helixsite.tally"):
        for _ in range(6):  # five flushes while the database is away, one after
            counts.add({"a": 1})
            counts.flush()

    assert written == [{"a": 6}]
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "could not write the test counts (1 kept for the next try): the database is unreachable"),
        ("INFO", "wrote the test counts after 5 failed tries (0 dropped)"),
    ]
    assert not any(r.exc_info for r in caplog.records), "no traceback for the database being away"


@pytest.mark.django_db
def test_a_count_the_database_refuses_never_fails_the_call(caplog):
    def write(sums: dict[str, int]) -> None:
        raise DatabaseError("could not extend file: no space left on device")

    counts = Tally("test counts", merge=lambda a, b: a + b, write=write)
    try:
        counts.add({"a": 1})
    finally:
        tally._tallies.remove(counts)

    assert "could not write 1 test counts" in caplog.text


@pytest.mark.slow
def test_a_web_server_that_stops_writes_every_count_it_summed(searcher):
    token, memory = searcher
    # An interval longer than the test: what is written, the stop wrote.
    with web_server(HELIX_TALLY_SECONDS="60", HELIX_API_RATE="1000000/minute") as base:
        for _ in range(3):
            response = httpx2.post(
                f"{base}/api/v1/search_memory",
                json=QUESTION,
                headers={"Authorization": f"Bearer {token}"},
                timeout=WAIT_SECONDS,
            )
            assert response.status_code == 200 and response.json()["count"] == 1

    assert counted() == (3, 3)

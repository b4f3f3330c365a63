"""Concurrent add_memory calls: identical ones store one memory, different ones never deadlock, an
entity another write makes meanwhile is linked."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection, transaction

from memory.ingest.english.entities import find_entities
from memory.models import CorpusTerm, CorpusTermDelta, Entity, Memory, Mention
from memory.providers import get_embedder
from memory.search.corpus import corpus_fold
from memory.services.add import memory_add
from rbac.models import Role, Workspace
from tests.factories import grant, make_principal, make_workspace
from tests.threads import run_together


@pytest.fixture
def writer(transactional_db):
    get_embedder().embed(["warm up"], purpose="test")  # load the model before the race
    workspace = make_workspace("team")
    principal = make_principal("writer")
    grant(principal, workspace, Role.WORKER)
    return principal.user


@pytest.mark.slow
def test_identical_concurrent_calls_store_one_memory(writer):
    call = lambda: memory_add(actor=writer, user_id="bob", message="I live in Paris. I have a cat.", group_id="team")  # noqa: E731

    results = run_together([call] * 4)

    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(Memory.objects.values_list("content", flat=True)) == ["bob has a cat.", "bob lives in Paris."]
    assert sum(len(r["memory_ids"]) for r in results) == 2


@pytest.mark.slow
def test_different_concurrent_writes_all_succeed(writer):
    messages = [f"Service {n} listens on port {8000 + n}. Its owner is team {n}." for n in range(6)]
    calls = [
        lambda m=m, u=u: memory_add(actor=writer, user_id=u, message=m, group_id="team")
        for m in messages
        for u in ("bob", "carol")
    ]

    results = run_together(calls)

    assert not [r for r in results if isinstance(r, Exception)], results
    assert Memory.objects.count() == 24


@pytest.mark.slow
def test_concurrent_writes_and_folds_keep_the_search_statistics_exact(writer):
    adds = [
        lambda n=n: memory_add(
            actor=writer, user_id=f"owner{n}", message=f"Rack {n} holds the router.", group_id="team"
        )
        for n in range(8)
    ]

    results = run_together([*adds, corpus_fold, corpus_fold, *adds[:2]])

    assert not [r for r in results if isinstance(r, Exception)], results
    corpus_fold()
    assert not CorpusTermDelta.objects.exists()
    counted = {row.term: row.documents for row in CorpusTerm.objects.filter(corpus="memory")}
    assert counted["rack"] == counted["router"] == Memory.objects.count() == counted[""] > 0


@pytest.mark.slow
def test_an_entity_another_write_makes_meanwhile_is_linked_all_the_same(writer):
    """The write that links a memory's entities waits on another transaction making one of them;
    once that one commits, the entity is linked though the waiting statement could not see it."""
    message = "Priya Raman reviews every deploy."
    (entity,) = find_entities(message, subject="bob")
    scope = f"rbac:group:{Workspace.objects.get(slug='team').id}"
    made = threading.Event()

    def another_write() -> None:
        with transaction.atomic():
            Entity.objects.create(
                name=entity.name, normalized_name=entity.normalized, entity_type=entity.entity_type, rbac_scope=scope
            )
            made.set()
            deadline = time.monotonic() + 120
            while not _a_statement_waits_on_a_lock():  # the add's link, on this uncommitted row
                assert time.monotonic() < deadline, "the add never waited on the entity"
                time.sleep(0.05)

    def add() -> dict:
        assert made.wait(120)
        return memory_add(actor=writer, user_id="bob", message=message, group_id="team")

    results = run_together([another_write, add])

    assert not [r for r in results if isinstance(r, Exception)], results
    (stored,) = Entity.objects.filter(rbac_scope=scope, normalized_name=entity.normalized)
    assert list(Mention.objects.filter(entity=stored).values_list("memory_id", flat=True)) == [
        uuid.UUID(results[1]["memory_ids"][0])
    ]


def _a_statement_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # read afresh inside the open transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return bool(cursor.fetchone()[0])

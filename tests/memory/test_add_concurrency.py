"""Concurrent add_memory calls: identical ones store one memory, different ones never deadlock."""

from __future__ import annotations

import pytest

from memory.models import CorpusTerm, CorpusTermDelta, Memory
from memory.providers import get_embedder
from memory.search.corpus import corpus_fold
from memory.services.add import memory_add
from rbac.models import Role
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

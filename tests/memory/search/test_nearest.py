"""A large owner is searched through the indexes (HNSW with the owner's and visibility filter, BM25 through
the full-text index), a small one gathered first and ranked exactly; and a filter that leaves few rows
still gives a full page: the nearest rows exactly, never fewer than asked while that many match
(pgvector's iterative scan gives up at ``hnsw.max_scan_tuples``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from django.db import connection
from django.test import override_settings

from memory.models import Memory
from memory.search.bm25 import bm25_rank, bm25_rank_gathered, essential_terms
from memory.search.conductor import memory_search
from memory.search.corpus import MEMORIES
from memory.search.scope import Scope
from memory.search.seeds import gathers, nearest
from rbac.models import Role
from tests.factories import grant, make_memories, make_principal, make_workspace, unit_vector

pytestmark = pytest.mark.django_db

K = 20


@dataclass
class Crowd:
    seen: int  # the workspace the reader sees
    reader: object


@pytest.fixture
def crowd() -> Crowd:
    """Owner ``rare`` has 30 memories a reader of one workspace sees, hidden among 400 of theirs in
    another workspace and 400 of another owner's."""
    seen, hidden = make_workspace("seen"), make_workspace("hidden")
    reader = make_principal("reader")
    grant(reader, seen, Role.VIEWER)
    author = make_principal("writer").user
    rows = [("rare", seen.id)] * 30 + [("rare", hidden.id)] * 400 + [("crowd", seen.id)] * 400
    Memory.objects.bulk_create(
        Memory(
            content=f"note {n} about the harbour", content_key=f"k{n}", user_id=owner, author=author,
            rbac_scope="default", visible_in=[space], embedding=unit_vector(n),
        )
        for n, (owner, space) in enumerate(rows)
    )  # fmt: skip
    return Crowd(seen.id, reader.user)


def nearest_of(crowd: Crowd, owner: str, vector: list[float]) -> dict:
    scope = Scope(readable=[crowd.seen], user_id=owner)
    where, params = scope.sql()
    return nearest("memory_memory m", where, params, vector, gathered=gathers(scope, "memory_memory"))


def exactly(crowd: Crowd, owner: str, vector: list[float]) -> list[str]:
    rows = Memory.objects.filter(user_id=owner, visible_in__overlap=[crowd.seen]).values_list("id", "embedding")
    ranked = sorted(rows, key=lambda row: -float(np.dot(row[1], vector)))
    return [memory_id for memory_id, _ in ranked[:K]]


def walk_the_graph(max_scan_tuples: int) -> None:
    """Make the planner take the HNSW index, as it does in a large table, and let it give up early."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL hnsw.ef_search = 10")
        cursor.execute(f"SET LOCAL hnsw.max_scan_tuples = {max_scan_tuples}")


@override_settings(HELIX_SEARCH_VECTOR_K=K, HELIX_SEARCH_EXACT_ROWS=10)
def test_a_filter_leaving_few_rows_still_gives_a_full_page_of_the_nearest(crowd):
    walk_the_graph(max_scan_tuples=10)  # of 830 rows, 30 pass the filter
    query = unit_vector(10_000)

    for _ in range(2):  # the second time the owner is known to be large
        found = nearest_of(crowd, "rare", query)

        assert len(found) == K
        assert sorted(found) == sorted(exactly(crowd, "rare", query))


@override_settings(HELIX_SEARCH_VECTOR_K=K, HELIX_SEARCH_EXACT_ROWS=100)
def test_an_owner_of_few_rows_is_ranked_exactly(crowd):
    walk_the_graph(max_scan_tuples=10)
    query = unit_vector(10_001)

    found = nearest_of(crowd, "rare", query)

    assert sorted(found) == sorted(exactly(crowd, "rare", query))
    vectors = dict(Memory.objects.filter(pk__in=list(found)).values_list("id", "embedding"))
    assert all(abs(cosine - float(np.dot(vectors[i], query))) < 1e-5 for i, cosine in found.items())


@override_settings(HELIX_SEARCH_VECTOR_K=K, HELIX_SEARCH_EXACT_ROWS=10)
def test_an_owner_with_fewer_rows_than_asked_gets_them_all(crowd):
    walk_the_graph(max_scan_tuples=10)
    visible = Memory.objects.filter(user_id="rare", visible_in=[crowd.seen])
    visible.exclude(pk__in=visible.values("pk")[:12]).delete()

    assert len(nearest_of(crowd, "rare", unit_vector(10_002))) == 12


@pytest.mark.parametrize("bound", [10, 2000])
def test_a_search_of_a_large_owner_finds_a_full_page_of_only_what_the_reader_sees(crowd, settings, bound):
    settings.HELIX_SEARCH_EXACT_ROWS = bound
    seen = set(Memory.objects.filter(user_id="rare", visible_in=[crowd.seen]).values_list("id", flat=True))

    for _ in range(2):
        results = memory_search(actor=crowd.reader, query="note about the harbour", user_id="rare", limit=10)["results"]

        assert len(results) == 10
        assert {r["id"] for r in results} <= {str(i) for i in seen}


def test_bm25_gathers_an_owner_of_few_rows_and_gives_way_for_one_of_many(crowd):
    scope = Scope(readable=[crowd.seen], user_id="rare")
    where, params = scope.sql()
    rank = {"readable": [crowd.seen], "where": where, "params": params, "text": "harbour note"}

    whole = bm25_rank(MEMORIES, owned=True, **rank)
    gathered = bm25_rank_gathered(MEMORIES, up_to=30, **rank)

    assert gathered is not None and gathered.scores == whole.scores and len(whole.scores) == 30
    assert bm25_rank_gathered(MEMORIES, up_to=29, **rank) is None
    assert bm25_rank(MEMORIES, owned=False, **rank).scores == whole.scores


@pytest.fixture
def large_owner():
    """Owner ``big``: 300 memories about coffee, 3 of which also name a rare place, and one about
    tea in that place; read by a viewer of the workspace."""
    space = make_workspace("large")
    reader = make_principal("reader-large")
    grant(reader, space, Role.VIEWER)
    author = make_principal("writer-large").user
    texts = [f"coffee note {n} from the morning" for n in range(297)]
    texts += [f"coffee in Zanzibarton, visit {n}" for n in range(3)] + ["tea in Zanzibarton"]
    make_memories(texts, user_id="big", workspace_id=space.id, author=author, seed=20_000)
    return space, reader.user


def test_the_essential_terms_are_the_rarest_while_their_rows_fit_and_never_none(settings):
    settings.HELIX_SEARCH_BM25_MATCH_ROWS = 100
    frequencies = {"coffe": 300.0, "zanzibarton": 4.0, "morn": 297.0, "visit": 3.0}

    assert essential_terms(list(frequencies), frequencies) == ["visit", "zanzibarton"]
    assert essential_terms(["coffe", "morn"], frequencies) == ["morn"]  # the rarest, past the budget alone


def test_a_large_owner_s_bm25_reads_at_most_its_match_rows_and_keeps_the_exact_best(large_owner, settings):
    space, _ = large_owner
    settings.HELIX_SEARCH_BM25_MATCH_ROWS = 100
    scope = Scope(readable=[space.id], user_id="big")
    where, params = scope.sql()
    rank = {"readable": [space.id], "where": where, "params": params}

    bounded = bm25_rank(MEMORIES, text="coffee in Zanzibarton", owned=False, **rank)
    exact = bm25_rank(MEMORIES, text="coffee in Zanzibarton", owned=True, **rank)
    common = bm25_rank(MEMORIES, text="coffee", owned=False, **rank)

    def best(ranked, k):
        return sorted(ranked.scores, key=lambda i: (-ranked.scores[i], i))[:k]

    assert len(bounded.scores) == 4  # the rows holding the rare word, not the 300 holding "coffee"
    assert best(bounded, 4) == best(exact, 4)
    assert all(abs(bounded.scores[i] - exact.scores[i]) < 1e-9 for i in bounded.scores)  # scored by every term
    assert len(exact.scores) == 100 and 0 < len(common.scores) <= 100  # a common word alone: the budget read


@pytest.mark.parametrize("match_rows", [100, 2000])
def test_a_large_owner_s_search_finds_the_rare_place_first_and_a_full_page(large_owner, settings, match_rows):
    space, reader = large_owner
    settings.HELIX_SEARCH_EXACT_ROWS = 50  # the owner's 301 rows are many
    settings.HELIX_SEARCH_BM25_MATCH_ROWS = match_rows

    for _ in range(2):  # the second time the owner is known to be large
        results = memory_search(actor=reader, query="coffee in Zanzibarton", user_id="big", limit=10)["results"]

        assert len(results) == 10
        assert "Zanzibarton" in results[0]["content"]

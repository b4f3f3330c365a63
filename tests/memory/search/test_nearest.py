"""The vector seeds of a large owner come from the HNSW index with the owner's and visibility filter,
and a filter that leaves few rows still gives a full page: the nearest rows exactly, never fewer
than asked while that many match (pgvector's iterative scan gives up at ``hnsw.max_scan_tuples``)."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection
from django.test import override_settings

from memory.models import Memory
from memory.search.scope import Scope
from memory.search.seeds import nearest
from tests.factories import make_principal, unit_vector

pytestmark = pytest.mark.django_db

K = 20


@pytest.fixture
def crowd():
    """Owner ``rare`` has 30 memories a reader of workspace 1 sees, hidden among 400 of theirs in
    workspace 2 and 400 of another owner's."""
    author = make_principal("writer").user
    rows = [("rare", [1])] * 30 + [("rare", [2])] * 400 + [("crowd", [1])] * 400
    Memory.objects.bulk_create(
        Memory(
            content=f"memory {n}", content_key=f"k{n}", user_id=owner, author=author, rbac_scope="default",
            visible_in=seen_in, embedding=unit_vector(n),
        )
        for n, (owner, seen_in) in enumerate(rows)
    )  # fmt: skip


def nearest_of(owner: str, vector: list[float]) -> dict:
    where, params = Scope(readable=[1], user_id=owner).sql()
    return nearest("memory_memory m", where, params, vector, owned=True)


def exactly(owner: str, vector: list[float]) -> list[str]:
    rows = Memory.objects.filter(user_id=owner, visible_in__overlap=[1]).values_list("id", "embedding")
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

    found = nearest_of("rare", query)

    assert len(found) == K
    assert sorted(found) == sorted(exactly("rare", query))


@override_settings(HELIX_SEARCH_VECTOR_K=K, HELIX_SEARCH_EXACT_ROWS=100)
def test_an_owner_of_few_rows_is_ranked_exactly(crowd):
    walk_the_graph(max_scan_tuples=10)
    query = unit_vector(10_001)

    found = nearest_of("rare", query)

    assert sorted(found) == sorted(exactly("rare", query))
    vectors = dict(Memory.objects.filter(pk__in=list(found)).values_list("id", "embedding"))
    assert all(abs(cosine - float(np.dot(vectors[i], query))) < 1e-5 for i, cosine in found.items())


@override_settings(HELIX_SEARCH_VECTOR_K=K, HELIX_SEARCH_EXACT_ROWS=10)
def test_an_owner_with_fewer_rows_than_asked_gets_them_all(crowd):
    walk_the_graph(max_scan_tuples=10)
    Memory.objects.filter(user_id="rare", visible_in=[1]).exclude(
        pk__in=Memory.objects.filter(user_id="rare", visible_in=[1]).values("pk")[:12]
    ).delete()

    assert len(nearest_of("rare", unit_vector(10_002))) == 12

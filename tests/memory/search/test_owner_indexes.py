"""The largest owners get an HNSW index of their own memories (memory.vector_indexes): built and
dropped by the worker's refresh, read by their searches, never by anyone else's."""

from __future__ import annotations

import copy
import uuid

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.erasure.services import owner_erase
from memory.models import Memory
from memory.search.conductor import memory_search
from memory.tasks import owner_indexes_refresh
from memory.vector_indexes import MEMORIES, owner_indexes_present

EXACT = 20  # HELIX_SEARCH_EXACT_ROWS here: an owner of more is searched through the indexes


@pytest.fixture
def owners(team, add, settings):
    """Memories of several owners, each with a vector of its own, made by copying one memory."""
    settings.HELIX_SEARCH_EXACT_ROWS = EXACT
    said = add("I keep my bicycle in the shed.", extract=False)
    template = Memory.objects.get(id=said["memory_ids"][0])
    rng = np.random.default_rng(7)

    def make(user_id: str, count: int) -> None:
        rows = []
        for n in range(count):
            row = copy.copy(template)
            vector = rng.normal(size=len(template.embedding))
            row.id, row.user_id, row.content_key = uuid.uuid4(), user_id, f"{user_id} {n}"
            row.content = f"{user_id} note {n} about the garden"
            row.embedding = vector / np.linalg.norm(vector)
            rows.append(row)
        Memory.objects.bulk_create(rows)

    return make


def indexed() -> set[str]:
    return {name for name, valid in owner_indexes_present(MEMORIES).items() if valid}


def vector_plan(actor, user_id: str) -> str:
    """The plan of the search's vector statement for ``user_id``, sequential scans ruled out."""
    with CaptureQueriesContext(connection) as queries:
        found = memory_search(actor=actor, query="garden notes", user_id=user_id, limit=10, reinforce=False)
    assert found["count"] == 10
    (statement,) = [q["sql"] for q in queries.captured_queries if "ORDER BY m.embedding <=>" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + statement)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.django_db
def test_the_largest_owner_gets_an_index_that_only_their_searches_read(team, owners, settings):
    settings.HELIX_SEARCH_OWNER_INDEXES = 1
    owners("dana", 45)
    owners("carol", 30)
    for n in range(10):
        owners(f"member{n}", 12)

    done = owner_indexes_refresh()

    assert done == {"built": 1, "dropped": 0, "kept": 0, "deferred": 0}
    assert indexed() == {MEMORIES.index_name("dana")}
    assert "Index Scan using memory_owner_hnsw_" in vector_plan(team["writer"], "dana")
    assert "memory_owner_hnsw_" not in vector_plan(team["writer"], "carol")
    assert owner_indexes_refresh() == {"built": 0, "dropped": 0, "kept": 1, "deferred": 0}


@pytest.mark.django_db
def test_an_owner_keeps_the_index_until_half_the_size_and_the_cap_drops_the_smallest(owners, settings):
    settings.HELIX_SEARCH_OWNER_INDEXES = 2
    owners("dana", 45)
    owners("carol", 30)
    for n in range(12):
        owners(f"member{n}", 12)
    owner_indexes_refresh()
    assert indexed() == {MEMORIES.index_name("dana"), MEMORIES.index_name("carol")}

    Memory.objects.filter(id__in=Memory.objects.filter(user_id="carol").values("id")[:15]).delete()
    owner_indexes_refresh()
    assert indexed() == {MEMORIES.index_name("dana"), MEMORIES.index_name("carol")}  # 15: past half of 20

    Memory.objects.filter(id__in=Memory.objects.filter(user_id="carol").values("id")[:6]).delete()
    owner_indexes_refresh()
    assert indexed() == {MEMORIES.index_name("dana")}  # 9: below half

    settings.HELIX_SEARCH_OWNER_INDEXES = 0
    assert owner_indexes_refresh()["dropped"] == 1
    assert indexed() == set()


@pytest.mark.django_db
def test_an_owner_holding_a_quarter_of_all_memories_has_none(owners, settings):
    """The whole table's index serves them: at most four rows walked for each kept."""
    settings.HELIX_SEARCH_OWNER_INDEXES = 4
    owners("dana", 45)
    owners("carol", 100)

    owner_indexes_refresh()

    assert indexed() == set()


@pytest.mark.django_db
def test_an_interrupted_build_is_built_again(owners, settings):
    settings.HELIX_SEARCH_OWNER_INDEXES = 1
    owners("dana", 45)
    for n in range(10):
        owners(f"member{n}", 15)
    owner_indexes_refresh()
    name = MEMORIES.index_name("dana")
    with connection.cursor() as cursor:  # what a concurrent build stopped half-way leaves
        cursor.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass(%s)", [name])
    assert owner_indexes_present(MEMORIES) == {name: False}

    assert owner_indexes_refresh()["built"] == 1
    assert owner_indexes_present(MEMORIES) == {name: True}


@pytest.mark.django_db
def test_any_owner_name_makes_an_index_of_that_owner_alone(team, owners, settings):
    settings.HELIX_SEARCH_OWNER_INDEXES = 1
    odd = "o'brien\"; DROP TABLE memory_memory; -- ñ"
    owners(odd, 45)
    for n in range(10):
        owners(f"member{n}", 15)

    owner_indexes_refresh()

    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [MEMORIES.index_name(odd)])
        (definition,) = cursor.fetchone()
    assert "WHERE ((user_id)::text = 'o''brien\"; DROP TABLE memory_memory; -- ñ'::text)" in definition
    assert "Index Scan using memory_owner_hnsw_" in vector_plan(team["writer"], odd)


@pytest.mark.django_db
def test_an_owner_erased_everywhere_loses_the_index_as_the_erasure_commits(
    owners, settings, django_capture_on_commit_callbacks
):
    """An index's definition names its owner: it goes with them, not five minutes later."""
    settings.HELIX_SEARCH_OWNER_INDEXES = 1
    owners("dana", 45)
    for n in range(10):
        owners(f"member{n}", 15)
    owner_indexes_refresh()
    assert indexed() == {MEMORIES.index_name("dana")}

    with django_capture_on_commit_callbacks(execute=True):
        owner_erase(user_id="dana")

    assert indexed() == set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_indexes WHERE indexdef LIKE %s", ["%'dana'%"])
        assert cursor.fetchone() == (0,)

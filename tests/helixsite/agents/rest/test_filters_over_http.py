"""``filters`` on search_memory and list_memories over HTTP: the filter is applied before ranking
(a full page of matches when enough exist, even when the query prefers the others), combines with
AND / OR / NOT, dates, ``in`` and ``contains``, is refused with a 400 naming the bad part, and
never shows a memory of a workspace the caller cannot read."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from helixsite.agents.mcp.tools import input_schema
from memory.api.read import ListMemoriesApi, SearchMemoryApi
from memory.models import Edge, EdgeType
from rbac.models import Principal, Role
from rbac.policy import write_domain_resolve
from tests.conftest import rows_for_the_module
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_memory, make_workspace

pytestmark = pytest.mark.django_db

START = datetime(2024, 1, 1, tzinfo=UTC)
RED = {"metadata": {"colour": "red"}}


def _build() -> dict[str, Any]:
    """Thirty memories of bob's in "garden", alternately red (the fence) and blue (the tulips),
    one a day from 2024-01-01, each red one linked to the blue one after it; and ten red ones of
    bob's in "shed", which only the shed's writer reads."""
    garden, shed = make_workspace("garden"), make_workspace("shed")
    callers = {}
    for name, space, role in (
        ("gardener", garden, Role.WORKER),
        ("visitor", garden, Role.VIEWER),
        ("sheds", shed, Role.WORKER),
    ):
        principal, issued = make_agent_with_token(name)
        grant(principal, space, role)
        callers[name] = Caller(name, bearer_client(issued.raw))
    gardener = Principal.objects.get(user__username="gardener")
    domain = write_domain_resolve(actor=gardener.user, group_id="garden")
    previous = None
    for n in range(30):
        red = n % 2 == 0
        day = START + timedelta(days=n)
        memory = make_memory(
            author=gardener,
            domain=domain,
            user_id="bob",
            content=f"Bob repaired fence post {n} with new nails." if red else f"Bob watered the tulips in bed {n}.",
            metadata={"colour": "red" if red else "blue", "bed": n, "note": f"Row {n} of the garden"},
            created_at=day,
            updated_at=day,
            valid_from=day,
            embed=True,
        )
        if previous is not None and not red:
            Edge.objects.create(source=previous, target=memory, edge_type=EdgeType.RELATES_TO, confidence=0.9)
        previous = memory
    sheds = Principal.objects.get(user__username="sheds")
    shed_domain = write_domain_resolve(actor=sheds.user, group_id="shed")
    for n in range(10):
        make_memory(
            author=sheds,
            domain=shed_domain,
            user_id="bob",
            content=f"Bob painted the shed door {n} red.",
            metadata={"colour": "red", "bed": 100 + n},
            embed=True,
        )
    return callers


@pytest.fixture(scope="module")
def callers(django_db_setup, django_db_blocker):
    yield from rows_for_the_module(django_db_blocker, _build)


def search(caller: Caller, filters: Any, *, query: str = "tulips watered in the garden beds", **params: Any):
    return caller.call("search_memory", user_id="bob", query=query, filters=filters, **params)


def colours(response) -> list[str]:
    assert response.status_code == 200, response.json()
    return [r["metadata"]["colour"] for r in response.json()["results"]]


def beds(response, key: str = "results") -> set[int]:
    assert response.status_code == 200, response.json()
    return {r["metadata"]["bed"] for r in response.json()[key]}


def test_a_filter_for_red_returns_a_full_page_of_red_memories_though_the_query_prefers_blue(callers):
    unfiltered = colours(search(callers["gardener"], None, limit=10))
    assert unfiltered.count("blue") >= 8, "the query is about the blue ones"
    for limit in (10, 15):
        assert colours(search(callers["gardener"], RED, limit=limit)) == ["red"] * limit


def test_the_graph_walk_never_reaches_a_memory_the_filter_excludes(callers):
    # Every red memory is linked to a blue one: a walk from the red seeds stays among the red.
    found = search(callers["gardener"], RED, limit=15, graph_depth=3, mode="deep")
    assert colours(found) == ["red"] * 15


def test_not_or_and_combine(callers):
    gardener = callers["gardener"]
    assert set(colours(search(gardener, {"NOT": RED}, limit=15))) == {"blue"}
    either = {"OR": [{"metadata": {"bed": {"lt": 4}}}, {"metadata": {"bed": {"gte": 28}}}]}
    assert beds(search(gardener, either, limit=20)) == {0, 1, 2, 3, 28, 29}
    both = {"AND": [RED, {"metadata": {"bed": {"in": [2, 3, 4, 5]}}}]}
    assert beds(search(gardener, both, limit=20)) == {2, 4}


def test_dates_bound_the_search(callers):
    january = {"created_at": {"gte": "2024-01-10", "lte": "2024-01-12"}}
    assert beds(search(callers["gardener"], january, limit=20)) == {9, 10, 11}
    assert beds(search(callers["gardener"], {"timestamp": {"gt": "2024-01-28"}}, limit=20)) == {28, 29}


def test_in_and_contains(callers):
    gardener = callers["gardener"]
    assert beds(search(gardener, {"metadata": {"bed": [7, 8]}}, limit=20)) == {7, 8}
    assert beds(search(gardener, {"metadata": {"note": {"contains": "Row 1"}}}, limit=20)) == {1, *range(10, 20)}
    assert beds(search(gardener, {"keywords": {"icontains": "FENCE POST 2"}}, limit=20)) == {2, 20, 22, 24, 26, 28}


def test_list_memories_pages_through_the_filtered_memories(callers):
    gardener = callers["gardener"]
    first = gardener.call("list_memories", user_id="bob", filters=RED, limit=10)
    assert first.status_code == 200 and first.json()["count"] == 10
    second = gardener.call("list_memories", user_id="bob", filters=RED, limit=10, cursor=first.json()["next_cursor"])
    assert second.json()["next_cursor"] is None
    listed = [m["metadata"] for m in first.json()["memories"] + second.json()["memories"]]
    assert [m["bed"] for m in listed] == list(range(28, -1, -2)), "newest first, every red one once"


def test_a_filter_is_taken_as_json_text_over_get(callers):
    found = callers["gardener"].call("search_memory", "get", user_id="bob", query="tulips", filters=json.dumps(RED))
    assert set(colours(found)) == {"red"}
    listed = callers["gardener"].call(
        "list_memories", "get", user_id="bob", filters=json.dumps({"metadata": {"bed": 3}})
    )
    assert beds(listed, "memories") == {3}


@pytest.mark.parametrize("tool", ["search_memory", "list_memories"])
def test_a_bad_filter_is_a_400_naming_the_bad_part(callers, tool):
    bad = {"AND": [RED, {"metadata": {"color": {"like": "r%"}}}]}
    params = {"query": "tulips"} if tool == "search_memory" else {}
    response = callers["gardener"].call(tool, user_id="bob", filters=bad, **params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("unknown_filter_operator", "filters.AND[1].metadata.color.like")
    assert "like" in error["message"]
    broken = callers["gardener"].call(tool, "get", user_id="bob", filters="{not json", **params)
    assert broken.status_code == 400 and broken.json()["error"]["field"] == "filters"


def test_a_filtered_search_does_not_take_document_chunks(callers):
    response = search(callers["gardener"], RED, include_chunks=True)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "include_chunks"


def test_a_filter_never_reveals_another_workspace(callers):
    # Bob's red memories in the shed are the only ones its writer reads, and none the garden's read.
    assert beds(search(callers["visitor"], RED, limit=25)) == set(range(0, 30, 2))
    assert beds(search(callers["sheds"], RED, limit=25)) == set(range(100, 110))
    wide = {"OR": [RED, {"user_id": "*"}, {"NOT": RED}]}
    assert beds(search(callers["sheds"], wide, limit=25, scope="all")) == set(range(100, 110))
    listed = callers["sheds"].call("list_memories", filters={"metadata": {"bed": {"lt": 100}}})
    assert listed.json()["memories"] == []


def test_the_tools_advertise_filters_as_an_object(callers):
    for tool in (SearchMemoryApi, ListMemoriesApi):
        advertised = input_schema(tool)["properties"]["filters"]
        assert advertised["type"] == ["object", "null"] and "metadata" in advertised["description"]

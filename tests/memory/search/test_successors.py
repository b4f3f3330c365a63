"""A successor ranks above what it supersedes, wholly or in part, and comes along with it.

A longer turn that says other things beside a value stays current when a later memory updates
that value (superseded in part): a search that finds the turn, for what else it says, finds the
update right above it, so the value read there is the current one.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db

LONG_TURN = (
    "user: Our build takes about twelve minutes on average. Also, the flaky payments test keeps failing "
    "on Mondays and I want to look at it with you later."
)
UPDATE = "user: The build now takes four minutes since we cached the images."


def _search(team, query: str, owner: str = "bob", **params) -> list[dict]:
    return memory_search(actor=team["writer"], query=query, user_id=owner, reinforce=False, **params)["results"]


def test_a_turn_found_for_what_else_it_says_brings_its_update_right_above_it(add, team, settings):
    settings.HELIX_SEARCH_VECTOR_K = 1  # only the nearest memory is a seed by meaning
    settings.HELIX_CONVERSATION_GAP_SECONDS = 0  # and the update is not found by the turn before it
    turn = add(LONG_TURN, extract=False)["memory_ids"][0]
    update = add(UPDATE, extract=False)["memory_ids"][0]

    results = _search(team, "flaky payments test failing on Mondays", graph_depth=0)

    ids = [r["id"] for r in results]
    assert ids.index(update) == ids.index(turn) - 1, "the update comes right above the turn"
    pulled = results[ids.index(update)]
    assert pulled["origin"] == "edge" and pulled["edge"]["type"] == "SUPERSEDES"
    assert pulled["supersedes"] == [turn] and not pulled["superseded"]
    assert results[ids.index(turn)]["superseded_in_part_by"] == [update]
    assert not results[ids.index(turn)]["superseded"], "the turn still holds what else it says"


def test_the_update_outranks_the_turn_that_matches_the_query_better(add, team):
    turn = add(LONG_TURN, extract=False)["memory_ids"][0]
    update = add("user: Good news: the build is down to four minutes.", extract=False)["memory_ids"][0]

    ids = [r["id"] for r in _search(team, "our build takes about twelve minutes on average")]

    assert ids.index(update) < ids.index(turn)


def test_a_chain_of_updates_ranks_newest_first(add, team):
    first = add("The staging database is db-2.", extract=False)["memory_ids"][0]
    second = add("The staging database is db-3 now.", extract=False)["memory_ids"][0]
    third = add("Since the migration the staging database is db-4.", extract=False)["memory_ids"][0]

    results = _search(team, "staging database db-2")

    ids = [r["id"] for r in results]
    assert ids.index(third) < ids.index(second) < ids.index(first)
    assert results[ids.index(third)]["supersedes"] == [second]
    assert results[ids.index(second)]["superseded_by"] == [third]


def test_successors_cost_no_query_per_result(add, team, settings):
    """The edges of every hit are read in the one statement that reads the other edges, and the
    successors not found are read together: as many queries for one turn as for four."""
    settings.HELIX_SEARCH_VECTOR_K = 1
    settings.HELIX_CONVERSATION_GAP_SECONDS = 0

    def queries(owner: str, turns: int) -> int:
        for n in range(turns):
            add(f"user: The build of service {n} takes about 12 minutes. Also the payments test {n} is flaky.",
                user_id=owner, extract=False)  # fmt: skip
            add(f"user: The build of service {n} now takes 4 minutes.", user_id=owner, extract=False)
        with CaptureQueriesContext(connection) as captured:
            results = _search(team, "flaky payments test", owner=owner, graph_depth=0)
        assert sum(1 for r in results if r.get("supersedes")) >= turns
        return len(captured)

    assert queries("four", 4) == queries("one", 1)

"""search_memory: hybrid recall, windows and flashbacks, history, families, and visibility."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from helixsite.errors import ApplicationError
from memory.api.read import SearchMemoryApi
from memory.models import Edge, Memory, MemoryAccess
from memory.search.bm25 import NOTHING
from memory.search.conductor import memory_search
from memory.search.params import search_request
from memory.search.rows import Recalled
from memory.search.score import score
from memory.search.seeds import ranks
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import grant, make_memory, make_principal, make_workspace, tool_input

pytestmark = pytest.mark.django_db


def search(actor, query: str, **params) -> list[dict]:
    return memory_search(actor=actor, query=query, **{"user_id": "bob", **params})["results"]


def contents(results: list[dict]) -> list[str]:
    return [r["content"] for r in results]


def test_the_current_fact_outranks_the_superseded_one_and_both_stay_reachable(team, add):
    add("I live in Paris.")
    add("I moved to Berlin last month.", occurred_at="2026-11-20")

    results = search(team["writer"], "where does bob live")

    current, old = results[0], next(r for r in results if r["content"] == "bob lives in Paris.")
    assert current["content"].startswith("bob moved to Berlin") and not current["superseded"]
    assert old["superseded"] and old["superseded_by"] == [current["id"]]
    assert old["score"] < current["score"]


def test_a_june_window_returns_june_rows_plus_at_most_three_dated_predecessors(team):
    writer = make_principal("w2")
    grant(writer, team["workspace"], Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="team")

    def event(content: str, day: datetime) -> Memory:
        return make_memory(
            author=writer, domain=domain, content=content, user_id="bob", embed=True, valid_from=day, created_at=day
        )

    june = [
        event(f"In June the Atlas launch step {n} shipped.", datetime(2026, 6, 3 + n, tzinfo=UTC)) for n in range(3)
    ]
    older = [
        event(f"In spring the Atlas prototype milestone {n} was reached.", datetime(2026, 4, 1 + n, tzinfo=UTC))
        for n in range(5)
    ]
    for n, old in enumerate(older):
        Edge.objects.create(source=june[n % 3], target=old, edge_type="BECAUSE")

    results = search(writer.user, "Atlas launch", time_from="2026-06-01", time_to="2026-06-30", graph_depth=1)

    in_window = [r for r in results if not r["flashback"]]
    flashbacks = [r for r in results if r["flashback"]]
    assert {r["id"] for r in in_window} == {str(m.id) for m in june}
    assert 1 <= len(flashbacks) <= 3
    assert all(r["event_date"].startswith("2026-04") and r["origin"] == "edge" for r in flashbacks)
    assert results[: len(in_window)] == in_window, "flashbacks come after the window's rows"
    stored = {str(m.id): m for m in [*june, *older]}
    assert all(r["created_at"] == stored[r["id"]].created_at.isoformat() for r in results), "the instants stored"


def test_a_raw_source_and_its_atoms_show_once(team, add):
    message = "I live in Lisbon near the river. I work as a nurse at Santa Maria hospital. I have two cats named Miso and Tofu."
    result = add(message)

    results = search(team["writer"], "nurse at Santa Maria hospital in Lisbon", graph_depth=1)

    family = {*result["memory_ids"], str(Memory.objects.get(source="raw_input").id)}
    shown = [r for r in results if r["id"] in family]
    assert len(shown) == 1
    assert set(shown[0]["collapsed"]) | {shown[0]["id"]} <= family and len(shown[0]["collapsed"]) >= 1


def test_a_raw_source_shows_in_place_of_its_atom_when_only_it_gives_the_value_asked_for(team, add):
    """An atom is one fact of its message: asked how long, the family shows as the message, whose
    other sentence gives the span, not as the best-ranked atom, which gives only times of day."""
    timed = "I timed the nightly build at 5:02 this morning and the bundle was ready at 5:09."
    result = add(f"{timed} Roughly 7 minutes end to end with the warm cache.")
    raw = str(Memory.objects.get(source="raw_input").id)
    family = {*result["memory_ids"], raw}

    def shown(query: str) -> dict:
        [member] = [r for r in search(team["writer"], query) if r["id"] in family]
        return member

    when = shown("When did I time the nightly build this morning?")  # asks for no kind of value
    assert when["id"] != raw and "5:02" in when["content"] and "7 minutes" not in when["content"]
    how_long = shown("How long does the nightly build take this morning?")
    assert how_long["id"] == raw and when["id"] in how_long["collapsed"]


def test_links_into_an_unreadable_workspace_never_leak(team, add):
    secret_ws = make_workspace("secret")
    insider = make_principal("insider")
    grant(insider, secret_ws, Role.WORKER)
    secret = add("The merger codename is Bluefin.", actor=insider.user, group_id="secret")["memory_ids"][0]
    mine = add("The Bluefin codename appears in my calendar.")["memory_ids"][0]
    Edge.objects.create(source_id=mine, target_id=secret, edge_type="RELATES_TO")

    for params in (
        {},
        {"scope": "all", "user_id": None},
        {"scope": "collective", "user_id": None},
        {"mode": "full", "graph_depth": 4},
    ):
        found = memory_search(actor=team["writer"], query="Bluefin merger codename", **{"user_id": "bob", **params})
        ids = {r["id"] for r in found["results"]}
        assert mine in ids and secret not in ids, params
        assert found["count"] == len(found["results"]) and all("merger" not in r["content"] for r in found["results"])


def test_collective_scope_folds_owners_but_never_widens_visibility(team, add):
    add("The office closes at 6pm on Fridays.", user_id="bob")
    add("The office closes at 6pm on Fridays.", user_id="carol")
    other = make_workspace("other")
    stranger = make_principal("stranger")
    grant(stranger, other, Role.WORKER)
    add("The office closes at 6pm on Fridays.", actor=stranger.user, group_id="other", user_id="dave")

    results = search(team["writer"], "when does the office close", scope="collective", user_id=None)

    office = [r for r in results if "office closes" in r["content"]]
    assert len(office) == 1 and office[0]["holders"] == 2


@pytest.mark.parametrize(
    ("params", "code", "field"),
    [
        ({"query": "  "}, "blank", "query"),
        ({"limit": 0}, "min_value", "limit"),
        ({"limit": 101}, "max_value", "limit"),
        ({"mode": "turbo"}, "unknown_mode", "mode"),
        ({"graph_depth": 5}, "max_value", "graph_depth"),
        ({"time_from": "June"}, "invalid_time", "time_from"),
        ({"time_from": "2026-07-01", "time_to": "2026-06-01"}, "inverted_window", "time_from"),
        ({"scope": "everyone"}, "invalid_choice", "scope"),
        ({"user_id": None}, "null", "user_id"),
    ],
)
def test_bad_search_parameters_name_the_field(team, params, code, field):
    with pytest.raises(ApplicationError) as refused:
        arguments = tool_input(SearchMemoryApi, **{"query": "anything", "user_id": "bob", **params})
        memory_search(actor=team["writer"], **arguments)
    assert (refused.value.status, refused.value.code, refused.value.field) == (400, code, field)


def test_an_unknown_mode_lists_the_modes(team):
    with pytest.raises(ApplicationError, match="mode must be one of: recent, contextual, deep, full"):
        memory_search(actor=team["writer"], query="x", user_id="bob", mode="turbo")


def test_recall_reinforces_what_it_returns(team, add):
    memory_id = add("The staging database is db-7.")["memory_ids"][0]

    search(team["writer"], "staging database")
    search(team["writer"], "which database is staging")

    access = MemoryAccess.objects.get(memory_id=uuid.UUID(memory_id))
    assert access.access_count == 2 and access.last_accessed_at is not None


def test_memories_that_score_alike_rank_in_one_order_whatever_order_the_database_returns_them_in():
    """Equal scores (the atoms of one message, scored as their source) are ordered by id, so
    the same search gives the same page after rows are rewritten elsewhere in the table, on a
    replica, or after a restore."""
    day = datetime(2026, 5, 4, tzinfo=UTC)

    def row(memory_id: uuid.UUID) -> Recalled:
        fields = (
            "The staging database is db-3.",
            "fact",
            "bob",
            "",
            0.5,
            "k",
            day,
            day,
            day,
            None,
            None,
            0.4,
            None,
            {},
        )
        return Recalled(memory_id, *fields)

    rows = [row(uuid.uuid4()) for _ in range(4)]
    request = search_request(query="staging database", user_id="bob")

    def ranked(order: list[Recalled]) -> list[uuid.UUID]:
        memories = {r.id: r for r in order}
        cosines = {r.id: r.cosine for r in order}
        hits = score(
            request=request,
            memories=memories,
            cosines=cosines,
            vector_scores=cosines,
            bm25=NOTHING,
            reached={},
            links=[],
        )
        return [h.memory.id for h in hits]

    assert ranked(rows) == ranked(rows[::-1]) == sorted(r.id for r in rows)
    assert ranks({r.id: 0.4 for r in rows}) == ranks({r.id: 0.4 for r in rows[::-1]})

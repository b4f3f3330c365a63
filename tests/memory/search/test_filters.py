"""mem0's filter language (``memory.search.filters``): every operator selects the memories it
names, through both forms of its SQL (the named parameters of a search's statements and the
positional ones of ``list_memories``'s ORM query), and every malformed filter is refused naming
its part, before any statement runs."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test import override_settings

from helixsite.errors import InvalidInput
from memory.categories.models import Category, Filing
from memory.models import Memory
from memory.search.filters import memory_filter_parse
from memory.search.scope import Scope
from memory.selectors import memory_list
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import grant, make_memory, make_principal, make_workspace

pytestmark = pytest.mark.django_db

# name → (owner, agent_id, metadata, created_at): the memories every test filters.
ROWS = {
    "red-1": ("alice", "scout:1", {"colour": "red", "size": 3, "tags": ["garden", "Spring"]}, "2024-01-10"),
    "red-2": ("alice", "", {"colour": "red", "size": 7, "note": "Tall Tomatoes"}, "2024-02-10"),
    "blue": ("alice", "scout:2", {"colour": "blue", "size": 5, "run_id": "r-9", "app_id": "garden"}, "2024-03-10"),
    "green": ("bob", "scout:1", {"colour": "green", "size": "5", "flag": True}, "2024-04-10"),
    "bare": ("bob", "", {"nothing": None}, "2024-05-10"),
}


@pytest.fixture
def world():
    space = make_workspace("garden")
    writer = make_principal("writer")
    grant(writer, space, Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="garden")
    ids = {}
    for name, (owner, agent, metadata, day) in ROWS.items():
        moment = datetime.fromisoformat(day).replace(tzinfo=UTC)
        memory = make_memory(
            author=writer,
            domain=domain,
            content=f"The {name} memory of {owner}.",
            user_id=owner,
            agent_id=agent,
            metadata=metadata,
            created_at=moment,
            updated_at=moment,
            valid_from=moment,
        )
        ids[memory.id] = name
    return writer.user, ids


def selected(world, raw) -> set[str]:
    """The memories ``raw`` selects, the same through both SQL forms (or the test fails)."""
    actor, ids = world
    parsed = memory_filter_parse(raw)
    listed = {ids[m.id] for m in memory_list(actor=actor, filters=parsed, include_superseded=True)}
    where, params = Scope.of(actor, None, filters=parsed).sql()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT m.id FROM memory_memory m WHERE {where}", params)
        searched = {ids[row[0]] for row in cursor.fetchall()}
    assert listed == searched
    return listed


def refused(raw) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        memory_filter_parse(raw)
    return caught.value


# --- what each operator selects ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"user_id": "alice"}, {"red-1", "red-2", "blue"}),
        ({"user_id": {"ne": "alice"}}, {"green", "bare"}),
        ({"user_id": {"in": ["bob", "carol"]}}, {"green", "bare"}),
        ({"user_id": ["bob"]}, {"green", "bare"}),
        ({"user_id": {"nin": ["bob"]}}, {"red-1", "red-2", "blue"}),
        ({"user_id": {"contains": "li"}}, {"red-1", "red-2", "blue"}),
        ({"user_id": {"icontains": "BO"}}, {"green", "bare"}),
        ({"user_id": "*"}, set(ROWS)),
        ({"agent_id": "scout:1"}, {"red-1", "green"}),
        ({"agent_id": "*"}, {"red-1", "blue", "green"}),
        ({"agent_id": {"ne": "scout:1"}}, {"blue"}),
        ({"run_id": "r-9"}, {"blue"}),
        ({"app_id": {"in": ["garden", "kitchen"]}}, {"blue"}),
        ({"run_id": "*"}, {"blue"}),
    ],
)
def test_the_id_fields_select_their_memories(world, raw, expected):
    assert selected(world, raw) == expected


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("red", {"red-1", "red-2"}),
        ({"eq": "red"}, {"red-1", "red-2"}),
        ({"ne": "red"}, {"blue", "green"}),
        ({"in": ["red", "green"]}, {"red-1", "red-2", "green"}),
        (["blue", "green"], {"blue", "green"}),
        ({"nin": ["red"]}, {"blue", "green"}),
        ({"contains": "ee"}, {"green"}),
        ({"icontains": "RE"}, {"red-1", "red-2", "green"}),
        ("*", {"red-1", "red-2", "blue", "green"}),
        ({"gte": "green"}, {"green", "red-1", "red-2"}),
        ({"lt": "c"}, {"blue"}),
    ],
)
def test_a_metadata_key_is_matched_by_every_operator(world, condition, expected):
    assert selected(world, {"metadata": {"colour": condition}}) == expected


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        (5, {"blue"}),  # a JSON number: the string "5" of green is another value
        ("5", {"green"}),
        ({"gt": 3}, {"red-2", "blue"}),
        ({"gte": 3}, {"red-1", "red-2", "blue"}),
        ({"lt": 5}, {"red-1"}),
        ({"lte": 5.0}, {"red-1", "blue"}),
        ({"gte": 3, "lte": 5}, {"red-1", "blue"}),
    ],
)
def test_numbers_compare_with_numbers_only(world, condition, expected):
    assert selected(world, {"metadata": {"size": condition}}) == expected


def test_booleans_nulls_arrays_and_text_of_metadata(world):
    assert selected(world, {"metadata": {"flag": True}}) == {"green"}
    assert selected(world, {"metadata": {"flag": False}}) == set()
    assert selected(world, {"metadata": {"nothing": None}}) == {"bare"}
    assert selected(world, {"metadata": {"nothing": "*"}}) == set(), "a null value is no value"
    assert selected(world, {"metadata": {"tags": {"contains": "garden"}}}) == {"red-1"}, "an element of an array"
    assert selected(world, {"metadata": {"note": {"contains": "Tomato"}}}) == {"red-2"}
    assert selected(world, {"metadata": {"note": {"contains": "tomato"}}}) == set()
    assert selected(world, {"metadata": {"note": {"icontains": "tomato"}}}) == {"red-2"}


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ({"gte": "2024-02-10"}, {"red-2", "blue", "green", "bare"}),
        ({"gt": "2024-02-10"}, {"blue", "green", "bare"}),  # after the whole day
        ({"lt": "2024-02-10"}, {"red-1"}),
        ({"lte": "2024-02-10"}, {"red-1", "red-2"}),
        ({"eq": "2024-03-10"}, {"blue"}),  # any time of the day
        ({"ne": "2024-03-10"}, {"red-1", "red-2", "green", "bare"}),
        ({"gte": "2024-03-10T00:00:01Z"}, {"green", "bare"}),
        ({"lt": int(datetime(2024, 2, 1, tzinfo=UTC).timestamp())}, {"red-1"}),  # Unix seconds
        ("*", set(ROWS)),
    ],
)
def test_times_compare_as_days_or_instants(world, condition, expected):
    for field in ("created_at", "updated_at", "timestamp"):
        assert selected(world, {field: condition}) == expected, field


def test_keywords_match_the_text(world):
    assert selected(world, {"keywords": {"contains": "blue memory"}}) == {"blue"}
    assert selected(world, {"keywords": {"icontains": "THE RED"}}) == {"red-1", "red-2"}


def test_categories_match_the_paths_a_memory_is_filed_in(world):
    actor, ids = world
    by_name = {name: memory_id for memory_id, name in ids.items()}
    scope = Memory.objects.get(pk=by_name["blue"]).rbac_scope
    work = Category.objects.create(rbac_scope=scope, path="work/finance", depth=2, lineage=["work", "work/finance"])
    Filing.objects.create(memory_id=by_name["blue"], category=work, method="rules")
    assert selected(world, {"categories": "work/finance"}) == {"blue"}
    assert selected(world, {"categories": {"in": ["Work/Finance", "home"]}}) == {"blue"}
    assert selected(world, {"categories": {"contains": "finance"}}) == {"blue"}
    assert selected(world, {"categories": {"icontains": "FIN"}}) == {"blue"}
    assert selected(world, {"categories": "*"}) == {"blue"}
    assert selected(world, {"categories": {"ne": "work/finance"}}) == set(ROWS) - {"blue"}
    assert selected(world, {"categories": {"nin": ["work/finance"]}}) == set(ROWS) - {"blue"}


def test_and_or_not_combine_conditions(world):
    assert selected(world, {"user_id": "alice", "metadata": {"colour": "red"}}) == {"red-1", "red-2"}
    assert selected(world, {"AND": [{"user_id": "alice"}, {"metadata": {"size": {"gt": 4}}}]}) == {"red-2", "blue"}
    assert selected(world, {"OR": [{"metadata": {"colour": "blue"}}, {"user_id": "bob"}]}) == {"blue", "green", "bare"}
    assert selected(world, {"NOT": {"metadata": {"colour": "red"}}}) == {"blue", "green", "bare"}
    # NOT of a list: none of them holds
    assert selected(world, {"NOT": [{"metadata": {"colour": "red"}}, {"user_id": "bob"}]}) == {"blue"}
    nested = {"OR": [{"AND": [{"user_id": "alice"}, {"NOT": {"agent_id": "*"}}]}, {"metadata": {"flag": True}}]}
    assert selected(world, nested) == {"red-2", "green"}


def test_ne_holds_where_the_key_is_present_and_not_holds_where_it_is_absent_too(world):
    assert selected(world, {"metadata": {"colour": {"ne": "red"}}}) == {"blue", "green"}
    assert selected(world, {"NOT": {"metadata": {"colour": "red"}}}) == {"blue", "green", "bare"}


def test_an_empty_filter_is_no_filter():
    assert memory_filter_parse(None) is None
    assert memory_filter_parse({}) is None


def test_values_and_keys_are_bound_never_written_into_the_statement():
    sneaky = "x'); DROP TABLE memory_memory; --"
    parsed = memory_filter_parse(
        {
            "user_id": sneaky,
            "metadata": {"colour": {"contains": sneaky}, "size": {"gt": sneaky}},
            "keywords": {"contains": sneaky},
        }
    )
    assert parsed is not None
    named, params = parsed.named("m")
    assert "DROP" not in named and sneaky in params.values()
    positional, values = parsed.positional("m")
    assert "DROP" not in positional and positional.count("%s") == len(values)
    # Both forms bind the same values in the order the statement reads them.
    order = [params[name] for name in re.findall(r"%\((filter_\d+)\)s", named)]
    assert order == values


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ("colour=red", "invalid_filter", "filters"),
        (["user_id"], "invalid_filter", "filters"),
        ({"colour": "red"}, "unknown_filter_field", "filters.colour"),
        (
            {"AND": [{"user_id": "a"}, {"metadata": {"color": {"like": "r%"}}}]},
            "unknown_filter_operator",
            "filters.AND[1].metadata.color.like",
        ),
        ({"AND": [{"user_id": "a"}, {}]}, "invalid_filter", "filters.AND[1]"),
        ({"AND": []}, "invalid_filter", "filters.AND"),
        ({"OR": {"user_id": "a"}}, "invalid_filter", "filters.OR"),
        ({"and": [{"user_id": "a"}]}, "unknown_filter_field", "filters.and"),
        ({"NOT": "user_id"}, "invalid_filter", "filters.NOT"),
        ({"metadata": "red"}, "invalid_filter", "filters.metadata"),
        ({"metadata": {}}, "invalid_filter", "filters.metadata"),
        ({"metadata": {"bad key": 1}}, "invalid_filter", "filters.metadata.bad key"),
        ({"metadata": {"k" * 65: 1}}, "invalid_filter", "filters.metadata." + "k" * 65),
        ({"metadata": {"colour": {}}}, "invalid_filter", "filters.metadata.colour"),
        ({"metadata": {"colour": {"eq": ["red"]}}}, "invalid_filter", "filters.metadata.colour.eq"),
        ({"metadata": {"colour": {"eq": {"a": 1}}}}, "invalid_filter", "filters.metadata.colour.eq"),
        ({"metadata": {"size": {"gt": True}}}, "invalid_filter", "filters.metadata.size.gt"),
        ({"metadata": {"size": {"gt": None}}}, "invalid_filter", "filters.metadata.size.gt"),
        ({"metadata": {"size": {"eq": float("nan")}}}, "invalid_filter", "filters.metadata.size.eq"),
        ({"metadata": {"note": {"contains": 5}}}, "invalid_filter", "filters.metadata.note.contains"),
        ({"metadata": {"colour": {"in": []}}}, "invalid_filter", "filters.metadata.colour.in"),
        ({"metadata": {"colour": {"in": "red"}}}, "invalid_filter", "filters.metadata.colour.in"),
        ({"metadata": {"colour": {"in": ["red", {"a": 1}]}}}, "invalid_filter", "filters.metadata.colour.in[1]"),
        ({"user_id": 7}, "invalid_filter", "filters.user_id"),
        ({"user_id": {"gt": "a"}}, "unknown_filter_operator", "filters.user_id.gt"),
        ({"user_id": "a\x00b"}, "invalid_filter", "filters.user_id"),
        ({"user_id": "x" * 1001}, "filter_too_large", "filters.user_id"),
        ({"created_at": {"gte": "yesterday"}}, "invalid_filter", "filters.created_at.gte"),
        ({"created_at": {"gte": "2024-02-30"}}, "invalid_filter", "filters.created_at.gte"),
        ({"created_at": {"gte": 10**20}}, "invalid_filter", "filters.created_at.gte"),
        ({"created_at": {"in": ["2024-01-01"]}}, "unknown_filter_operator", "filters.created_at.in"),
        ({"created_at": {"contains": "2024"}}, "unknown_filter_operator", "filters.created_at.contains"),
        ({"keywords": "garden"}, "unknown_filter_operator", "filters.keywords"),
        ({"keywords": "*"}, "unknown_filter_operator", "filters.keywords"),
        ({"categories": {"gt": "a"}}, "unknown_filter_operator", "filters.categories.gt"),
    ],
)
def test_a_malformed_filter_is_refused_naming_its_part(raw, code, field):
    error = refused(raw)
    assert (error.code, error.field) == (code, field)
    assert error.message.startswith(field)


@override_settings(HELIX_FILTER_MAX_DEPTH=3)
def test_a_filter_nested_too_deep_is_refused():
    three = {"AND": [{"OR": [{"user_id": "a"}]}]}
    assert memory_filter_parse(three) is not None
    error = refused({"AND": [{"OR": [{"NOT": {"user_id": "a"}}]}]})
    assert (error.code, error.field) == ("filter_too_deep", "filters.AND[0].OR[0].NOT")


@override_settings(HELIX_FILTER_MAX_TERMS=5)
def test_a_filter_with_too_many_terms_is_refused():
    assert memory_filter_parse({"metadata": {"colour": {"in": ["a", "b", "c", "d", "e"]}}}) is not None
    error = refused({"user_id": "a", "metadata": {"colour": {"in": ["a", "b", "c", "d", "e"]}}})
    assert error.code == "filter_too_large"
    error = refused({"OR": [{"user_id": str(n)} for n in range(6)]})
    assert (error.code, error.field) == ("filter_too_large", "filters.OR")

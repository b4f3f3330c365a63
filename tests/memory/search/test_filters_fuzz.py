"""Filters as a careless or hostile caller sends them: random JSON, and JSON shaped like the
language with random fields, operators and values, nested deep and listed wide. Every one is
refused with the one error (InvalidInput, naming a part of ``filters``) or parsed, in bounded
time; and every parsed one runs as SQL: PostgreSQL accepts the statement, whatever the values."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helixsite.errors import InvalidInput
from memory.search.filters import FIELDS, LOGICAL, OPERATORS, memory_filter_parse

pytestmark = pytest.mark.django_db

# One parse, whatever it is given. The worst costs a few milliseconds (under a millisecond for the
# deep and wide ones, refused at the first term too many); walking all of a 200,000-term filter
# costs most of a second. A reading over the budget is taken again (``_cost``), not trusted.
BUDGET_SECONDS = 0.25

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["*", "2024-01-01", "2024-02-30", "2024-01-01T10:00:00+02:00", "red", "", "\x00"]),
)
names = st.one_of(
    st.sampled_from([*FIELDS, "metadata", *LOGICAL, *OPERATORS, "colour", "and", "$or"]),
    st.text(max_size=12),
)
random_json = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(names, inner, max_size=6)),
    max_leaves=60,
)


def _condition(values: st.SearchStrategy) -> st.SearchStrategy:
    named = st.sampled_from([*OPERATORS, *OPERATORS, "like"])
    operators = st.dictionaries(named, st.one_of(values, st.lists(values, min_size=1, max_size=4)), min_size=1)
    return st.one_of(values, st.lists(values, max_size=4), operators)


# Values each field may well take, so that many shaped filters parse and run.
plausible = st.sampled_from(["red", "alice", "2024-01-10", "2024-01-10T08:00:00Z", 3, 2.5, 1_700_000_000, True, None])


def _shaped(values: st.SearchStrategy) -> st.SearchStrategy:
    metadata_keys = st.sampled_from(["colour", "size", "run_id", "bad key", "a.b"])
    leaf = st.one_of(
        st.builds(lambda f, c: {f: c}, st.sampled_from(list(FIELDS)), _condition(values)),
        st.builds(lambda k, c: {"metadata": {k: c}}, metadata_keys, _condition(values)),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.builds(lambda items: {"AND": items}, st.lists(inner, max_size=4)),
            st.builds(lambda items: {"OR": items}, st.lists(inner, max_size=4)),
            st.builds(lambda item: {"NOT": item}, inner),
            st.builds(lambda items: {"NOT": items}, st.lists(inner, max_size=3)),
            st.builds(lambda a, b: {**a, **b}, inner, inner),
        ),
        max_leaves=30,
    )


def _cost(raw: Any, *, took: float) -> float:
    """The seconds parsing ``raw`` takes, given the first reading ``took``: the least of three when
    that one is over the budget, so a pause of the machine (a collection, a busy core) is not
    taken for the parser's cost."""
    if took < BUDGET_SECONDS:
        return took
    return min(took, _seconds(raw), _seconds(raw))


def _seconds(raw: Any) -> float:
    started = time.perf_counter()
    with contextlib.suppress(InvalidInput):
        memory_filter_parse(raw)
    return time.perf_counter() - started


def _parse_in_time(raw: Any):
    started = time.perf_counter()
    try:
        parsed = memory_filter_parse(raw)
    except InvalidInput as refused:
        assert refused.field and refused.field.startswith("filters"), refused.field
        assert refused.code in {
            "invalid_filter",
            "unknown_filter_field",
            "unknown_filter_operator",
            "filter_too_deep",
            "filter_too_large",
            "out_of_range",
        }
        parsed = None
    assert _cost(raw, took=time.perf_counter() - started) < BUDGET_SECONDS
    return parsed


def _runs(parsed) -> None:
    """PostgreSQL plans and runs the condition through both forms of its SQL."""
    named, params = parsed.named("m")
    positional, values = parsed.positional("memory_memory")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM memory_memory m WHERE {named}", params)
        cursor.execute(f"SELECT count(*) FROM memory_memory WHERE {positional}", values)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=random_json)
def test_random_json_is_refused_or_parsed_in_bounded_time(raw):
    parsed = _parse_in_time(raw)
    if parsed is not None:
        _runs(parsed)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(_shaped(scalars), _shaped(plausible)))
def test_filters_shaped_like_the_language_are_refused_or_run(raw):
    parsed = _parse_in_time(raw)
    if parsed is not None:
        _runs(parsed)


def _nested(depth: int) -> dict:
    node: dict = {"user_id": "a"}
    for n in range(depth):
        node = {("AND", "OR", "NOT")[n % 3]: node if n % 3 == 2 else [node]}
    return node


@pytest.mark.parametrize(
    "raw",
    [
        _nested(10_000),  # far deeper than Python's recursion limit
        {"OR": [{"user_id": str(n)} for n in range(200_000)]},
        {"metadata": {f"k{n}": n for n in range(200_000)}},
        {"metadata": {"colour": {"in": list(range(200_000))}}},
        {f"field{n}": n for n in range(200_000)},
        {"AND": [{"OR": [{"user_id": str(n)} for n in range(90)]} for _ in range(2_000)]},
    ],
    ids=["deep", "wide-or", "wide-metadata", "long-in", "many-fields", "wide-and-of-ors"],
)
def test_deep_and_wide_filters_are_refused_at_once(raw):
    started = time.perf_counter()
    with pytest.raises(InvalidInput) as refused:
        memory_filter_parse(raw)
    assert _cost(raw, took=time.perf_counter() - started) < BUDGET_SECONDS
    assert refused.value.code in {"filter_too_deep", "filter_too_large", "unknown_filter_field"}

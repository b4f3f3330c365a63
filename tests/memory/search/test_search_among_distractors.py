"""search_memory among 500 ordinary memories of bob's: the right answer has to be found, not
just returned."""

from __future__ import annotations

import functools

import pytest

from memory.ingest.bulk import ImportRow, import_rows
from tests.conftest import add_as_writer, make_team, rows_for_the_module
from tests.memory.search.test_search import contents, search

pytestmark = pytest.mark.django_db


def write_distractors(team: dict) -> dict:
    """500 ordinary memories of bob's, so the right answer has to be found, not just returned."""
    topics = [
        "lunch",
        "the weather",
        "a podcast",
        "the gym",
        "a book",
        "the train",
        "a meeting",
        "groceries",
        "a movie",
        "coffee",
    ]
    rows = [
        ImportRow(
            n,
            "bob",
            f"bob talked about {topics[n % 10]} with colleague {n} on day {n % 28 + 1}.",
            "fact",
            "team",
            {},
            None,
            "",
        )
        for n in range(500)
    ]
    import_rows(actor=team["writer"], rows=rows, batch_size=250, rebuild_index="never")
    return team


@pytest.fixture(scope="module")
def module_team(django_db_setup, django_db_blocker):
    """The team with bob's distractors, imported (and embedded) once for the module."""
    yield from rows_for_the_module(django_db_blocker, lambda: write_distractors(make_team()))


@pytest.fixture
def team(module_team, db):
    """The module's team; the memory a test adds is rolled back after it."""
    return module_team


@pytest.fixture
def add(team):
    return functools.partial(add_as_writer, team)


@pytest.mark.parametrize(
    ("stored", "query"),
    [
        ("The failing job id is 7f3c2a9e-1b4d-4c8e-9a2f-5d6e7f8a9b0c.", "7f3c2a9e-1b4d-4c8e-9a2f-5d6e7f8a9b0c"),
        (
            "Nginx reads its TLS settings from /etc/nginx/conf.d/tls-hardening.conf.",
            "/etc/nginx/conf.d/tls-hardening.conf",
        ),
        ("The payment service answers ERR_QUOTA_4417 when the card limit is hit.", "what does ERR_QUOTA_4417 mean"),
    ],
)
def test_rare_exact_tokens_come_back_first(team, add, stored, query):
    add(stored, extract=False)

    assert contents(search(team["writer"], query))[0] == stored


def test_paraphrases_are_recalled(team, add):
    add("I moved to Lisbon in March and love the tiled buildings.")

    assert (
        contents(search(team["writer"], "Which city does the user live in now?"))[0]
        == "bob moved to Lisbon in March and love the tiled buildings."
    )

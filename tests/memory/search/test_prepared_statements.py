"""A search's every-call statements are prepared on the server once per connection
(``HELIX_DB_PREPARED``), so PostgreSQL stops planning them anew on each call; the answers are
the same either way."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings

from memory.search.conductor import memory_search
from memory.search.filters import memory_filter_parse

LINES = [
    "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
    "Melanie: I painted a lake sunrise last year, it's one of my favourites.",
    "Caroline: I'm keen on counseling and working in mental health.",
    "Melanie: We went camping at the beach with the kids last weekend.",
    "Caroline: My friends gave me a necklace from my grandma in Sweden.",
    "Melanie: I signed up for a pottery class, it's so calming.",
]
QUESTIONS = [
    "What did Caroline go to yesterday?",
    "What did Melanie paint?",
    "What career is Caroline interested in?",
    "Where did Melanie camp?",
    "Where is Caroline's grandma from?",
    "What class did Melanie sign up for?",
    "What calms Melanie?",
]


def prepared_here() -> dict[str, tuple[int, int]]:
    """This connection's prepared statements: text → (generic plans, custom plans)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
        return {statement: (generic, custom) for statement, generic, custom in cursor.fetchall()}


def answers(actor) -> list[list[str]]:
    return [
        [r["id"] for r in memory_search(actor=actor, query=q, user_id="bob", reinforce=False)["results"]]
        for q in QUESTIONS
    ]


@pytest.fixture
def conversation(team, add) -> None:
    for line in LINES:
        add(line, extract=False)


@pytest.mark.django_db
def test_a_search_prepares_its_statements_once_and_later_searches_reuse_them(team, conversation):
    memory_search(actor=team["viewer"], query=QUESTIONS[0], user_id="bob")
    first = prepared_here()
    texts = "\n".join(first)
    for read in ("memory_edge", "memory_memory", "WITH RECURSIVE walk", "guardian_userobjectpermission"):
        assert read in texts, f"a statement reading {read} is prepared"

    answers(team["viewer"])
    later = prepared_here()

    assert set(later) == set(first), "the same statements again, none prepared twice"
    assert any(generic > 0 for generic, _ in later.values()), "past a few searches, planned once and kept"


@pytest.mark.django_db
def test_with_the_setting_off_nothing_is_prepared_and_the_answers_are_the_same(team, conversation):
    prepared = answers(team["viewer"])
    with override_settings(HELIX_DB_PREPARED=False):
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")  # psycopg sees it and forgets the names it gave
        plain = answers(team["viewer"])
        assert prepared_here() == {}

    assert plain == prepared
    assert all(found for found in plain)


@pytest.mark.django_db
def test_a_search_narrowed_by_category_filter_or_window_prepares_none_of_its_narrowed_statements(team, conversation):
    """Their best plan depends on how many rows the category, the filter or the window leaves: a
    generic plan kept for them doubled a category search's time."""
    viewer = team["viewer"]
    memory_search(actor=viewer, query="What did Melanie paint?", user_id="bob", category="hobbies")
    memory_search(
        actor=viewer,
        query="What did Melanie paint?",
        user_id="bob",
        filters=memory_filter_parse({"metadata": {"k": "v"}}),
    )
    memory_search(actor=viewer, query="What did Melanie paint?", user_id="bob", time_from="2020-01-01")
    memory_search(actor=viewer, query="What did Melanie paint?", user_id="bob")

    texts = "\n".join(prepared_here())
    assert "WITH RECURSIVE walk" in texts, "the plain search's statements are prepared"
    for narrowed in ("categories_filing", "metadata @>", "valid_from >="):
        assert narrowed not in texts

"""A query's terms as BM25 weighs them: a hyphenated word counts once, however the index splits it.

The english parser gives "tracking-api" as the whole word and its parts ("tracking-api", "track",
"api"); scored as three terms, every row naming the service outranked the one row holding the rarer
words that answer the question.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memory.models import Memory
from memory.search.bm25 import bm25_rank, term_weights
from memory.search.corpus import MEMORIES
from memory.search.scope import Scope
from tests.factories import make_memories, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def lexemes(text: str) -> list[str]:
    """The terms of ``text`` as the search reads a query: the index's lexemes, sorted."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", [text])
        return sorted(cursor.fetchone()[0])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("tracking-api node drains", {"tracking-api": 0, "track": 0.5, "api": 0.5, "node": 1, "drain": 1}),
        ("a dairy-free dinner", {"dairy-fre": 0, "dairi": 0.5, "free": 0.5, "dinner": 1}),
        ("self-care on Sundays", {"self-car": 0, "self": 0.5, "care": 0.5, "sunday": 1}),
        ("state-of-the-art parsers", {"state-of-the-art": 0, "state": 0.5, "art": 0.5, "parser": 1}),
        ("a follow-up on the follow-up call", {"follow-up": 0, "follow": 1, "call": 1}),
        ("plain words only", {"plain": 1, "word": 1}),
    ],
)
def test_a_hyphenated_word_weighs_as_one_term_its_parts_sharing_it(query, expected):
    terms = lexemes(query)

    assert dict(zip(terms, term_weights(terms), strict=True)) == pytest.approx(expected)


def test_a_part_shared_by_two_hyphenated_words_takes_the_smaller_share():
    terms = lexemes("the tracking-api and the tracking-service-api")

    weights = dict(zip(terms, term_weights(terms), strict=True))

    assert weights["api"] == pytest.approx(1 / 3) and weights["servic"] == pytest.approx(1 / 3)
    assert weights["tracking-api"] == weights["tracking-service-api"] == 0


def test_the_row_holding_the_rare_word_outranks_rows_naming_only_the_hyphenated_service():
    """Six rows name the service, twenty a node, one says what node drains do: counted as three
    terms, "tracking-api" (in 6 of 60 rows) outweighed "node" and the rare "drains" together."""
    space = make_workspace("ops")
    author = make_principal("ops-writer").user
    texts = [f"the tracking-api release {n} went out on schedule" for n in range(6)]
    texts += [f"node {n} rebooted cleanly" for n in range(19)] + ["node drains kill long jobs"]
    texts += [f"weekly planning note {n}" for n in range(34)]
    make_memories(texts, user_id="dev", workspace_id=space.id, author=author, seed=30_000)
    scope = Scope(readable=[space.id], user_id="dev")
    where, params = scope.sql()

    ranked = bm25_rank(
        MEMORIES, readable=[space.id], where=where, params=params, owned=True,
        text="Why does the tracking-api fail during node drains?",
    )  # fmt: skip

    best = max(ranked.scores, key=ranked.scores.get)
    assert Memory.objects.get(pk=best).content == "node drains kill long jobs"
    assert 0 < ranked.scores[best] <= ranked.ceiling

"""The blend of the vector signal and BM25 never pushes out what one of them alone is surest of:
the hits either ranks among its ``HELIX_SEARCH_PART_TOP`` best stay in the results."""

from __future__ import annotations

import pytest
from django.test import override_settings

from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db

QUESTION = "What food does the user's dog like to eat?"
MEANT = "My puppy adores chewing on salmon treats."
WORDY = [
    "I like to eat food from the taco truck on Fridays.",
    "We eat dinner late, and I like food with a lot of garlic.",
    "The dog park by the office is nice; I like to eat lunch there.",
    "I like a food market on Sundays where we eat street food.",
    "My sister's dog likes the beach; we eat ice cream there.",
    "Food critics like to eat at the new place downtown.",
]


@pytest.fixture
def memories(add):
    for line in WORDY:
        add(line, extract=False)
    add(MEANT, extract=False)


def results(team, **settings) -> list[dict]:
    with override_settings(**settings):
        return memory_search(actor=team["writer"], query=QUESTION, user_id="bob", limit=3)["results"]


def test_the_vector_signals_best_hit_stays_in_a_short_list(team, memories):
    blended = [r["content"] for r in results(team, HELIX_SEARCH_PART_TOP=0)]
    kept = results(team)

    assert MEANT not in blended  # the words of the question push it out of the blend's three
    assert MEANT in [r["content"] for r in kept]
    assert next(r for r in kept if r["content"] == MEANT)["signals"]["vector_rank"] == 1
    assert len(kept) == 3


def test_what_it_keeps_is_in_the_blends_order(team, memories):
    kept = results(team)

    assert [r["score"] for r in kept] == sorted((r["score"] for r in kept), reverse=True)
    assert all(r["content"] in (MEANT, *WORDY) for r in kept)

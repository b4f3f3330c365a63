"""Whether a gold answer is in the text a tool hands a model: normalised on both sides, whole words."""

from __future__ import annotations

import pytest

from bench.answer_reach import answer_shares, holds_answer, normalised


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("The Eiffel Tower!", "eiffel tower"),
        ("  A   walk\tin the\npark ", "walk in park"),
        (2022, "2022"),
        ("7 May, 2023", "7 may 2023"),
        ("Caroline’s “new” job", "carolines new job"),
        ("an apple a day", "apple day"),
        ("Theatre and Anna", "theatre and anna"),
        ("The the THE", ""),
    ],
)
def test_normalised_lowercases_and_drops_punctuation_articles_and_extra_spaces(given, expected):
    assert normalised(given) == expected


def test_an_answer_is_found_whatever_its_case_punctuation_and_articles():
    assert holds_answer("A dog", "Melanie: we adopted the DOG, finally!")
    assert holds_answer("7 May 2023", "Caroline: I went on 7 May, 2023.")
    assert holds_answer(3, "I have 3 kids")


def test_an_answer_must_stand_as_whole_words():
    assert not holds_answer("7", "I went on 17 May")
    assert not holds_answer("art", "she paints, her heart is in it")
    assert not holds_answer("pottery class", "pottery is my class")


def test_an_answer_that_normalises_to_nothing_is_never_held():
    assert not holds_answer("the", "the the the")
    assert not holds_answer("", "anything at all")


def test_answer_shares_count_each_source_per_category_all_first_then_in_order_of_first_question():
    rows = [
        ("temporal", "May 2023", {"search": "in May, 2023", "context": "nothing here"}),
        ("single-hop", "pottery", {"search": "she took up pottery", "context": "Pottery!"}),
        ("temporal", "2022", {"search": "back in 2021", "context": "since 2022"}),
        ("single-hop", "the", {"search": "the", "context": "the"}),  # nothing to look for: not counted
        ("temporal", 1999, {"search": "1999", "context": "1999"}),
    ]
    shares = answer_shares(rows)
    assert list(shares) == ["all", "temporal", "single-hop"]
    assert shares["all"] == (4, {"search": 3 / 4, "context": 3 / 4})
    assert shares["temporal"] == (3, {"search": 2 / 3, "context": 2 / 3})
    assert shares["single-hop"] == (1, {"search": 1.0, "context": 1.0})


def test_a_source_missing_for_a_question_counts_as_not_holding_its_answer():
    rows = [("x", "cat", {"search": "a cat"}), ("x", "dog", {"search": "a dog", "context": "the dog"})]
    assert answer_shares(rows)["x"] == (2, {"search": 1.0, "context": 0.5})


def test_an_answer_in_parts_is_held_when_every_part_is():
    from bench.answer_reach import holds_every_part

    text = "We moved Pi-hole to the Pi, then Jellyfin; Nextcloud stays on the NAS."
    assert holds_every_part("Pi-hole; Jellyfin", text)
    assert not holds_every_part("Pi-hole; Jellyfin; Home Assistant", text)
    assert holds_every_part("Jellyfin", text) and not holds_every_part(";", text)

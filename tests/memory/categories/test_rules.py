"""Filing by rules: what the offline extractor read (concepts, entity types) and cue words."""

from __future__ import annotations

import pytest

from memory.categories.paths import lineage, path_normalize
from memory.categories.rules import Signals, paths_by_rules


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("work/infrastructure", "work/infrastructure"),
        (" Work / Infrastructure ", "work/infrastructure"),
        ("Health/Allergies!", "health/allergies"),
        ("préférences/café", "preferences/cafe"),
        ("a//b", "a/b"),
        ("one two/three", "one-two/three"),
    ],
)
def test_a_path_is_normalized(text, path):
    assert path_normalize(text) == path


@pytest.mark.parametrize("text", ["", "/", "!!!", "a/b/c/d/e", "   "])
def test_a_text_naming_no_path_is_none(text):
    assert path_normalize(text) is None


def test_a_long_segment_is_cut():
    assert path_normalize("x" * 100) == "x" * 40


def test_lineage_lists_the_ancestors_first():
    assert lineage("work/infrastructure/dns") == ["work", "work/infrastructure", "work/infrastructure/dns"]


def signals(content: str, memory_type: str = "fact", *, concepts=(), entity_types=()) -> Signals:
    return Signals(
        content=content,
        memory_type=memory_type,
        concepts=frozenset({memory_type, *concepts}),
        entity_types=frozenset(entity_types),
    )


@pytest.mark.parametrize(
    ("content", "memory_type", "expected"),
    [
        ("bob is allergic to peanuts.", "preference", ["health/allergies", "preferences/food"]),
        ("bob deploys the servers with Kubernetes.", "fact", ["work/infrastructure"]),
        ("bob's favourite food is ramen.", "preference", ["preferences/food"]),
        ("bob wants to run a marathon next year.", "goal", ["hobbies"]),
        ("bob has a standup every morning at 9.", "fact", ["work/meetings"]),
        ("bob's sister lives in Porto.", "fact", ["family", "home"]),
    ],
)
def test_cue_words_choose_the_topic(content, memory_type, expected):
    assert paths_by_rules(signals(content, memory_type)) == expected


def test_a_specific_topic_hides_its_parent():
    paths = paths_by_rules(signals("bob's team moved the staging database to a new server."))

    assert "work/infrastructure" in paths and "work" not in paths


def test_without_cue_words_the_concept_decides():
    assert paths_by_rules(signals("bob can solve a Rubik's cube blindfolded.", "skill")) == ["skills"]
    assert paths_by_rules(signals("bob won the regional quiz.", "fact", concepts={"achievement"})) == ["achievements"]


def test_entity_types_add_their_branch():
    paths = paths_by_rules(signals("bob's notes are at https://example.org/n.", entity_types={"url"}))

    assert paths == ["references/links"]


def test_a_memory_with_no_signal_goes_to_general():
    assert paths_by_rules(signals("bob is bob.")) == ["general"]


def test_at_most_limit_paths():
    content = "bob's wife cooks ramen at home and bob deploys servers on the trip."
    assert len(paths_by_rules(signals(content), limit=2)) == 2

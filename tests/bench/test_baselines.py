"""The hybrid's parts as plain rankings: Okapi BM25 over lowercase words, and cosine similarity."""

from __future__ import annotations

import time

import numpy as np

from bench.baselines import Bm25, cosine_ranking, words


def test_words_are_lowercase_runs_of_letters_and_digits_without_function_words():
    assert words("What did Caroline's friend_2 say about the DEPLOY-v2?") == [
        "caroline's",
        "friend",
        "2",
        "say",
        "about",
        "deploy",
        "v2",
    ]


def test_words_read_hostile_text_in_linear_time():
    for block in ("z", "a'", "'", " ", "a_", "é"):
        short, long = block * 4_000, block * 64_000
        started = time.perf_counter()
        words(short)
        small = time.perf_counter() - started
        started = time.perf_counter()
        words(long)
        assert time.perf_counter() - started < max(small * 16 * 4, 0.5), block


CORPUS = [
    "Caroline: I went to the LGBTQ support group yesterday.",  # 0
    "Melanie: I painted a sunrise over the lake last weekend.",  # 1
    "Caroline: The support group made me feel accepted.",  # 2
    "Melanie: My kids love the beach, we go every summer and swim and build castles all day long.",  # 3
    "Melanie: The beach.",  # 4
]


def test_bm25_ranks_the_rarer_word_first():
    # "group" is in two turns, "painted" in one: the turn with "painted" leads, the two others follow.
    assert Bm25(CORPUS).ranking("Who painted with the group?") == [1, 0, 2]


def test_bm25_ranks_the_shorter_turn_first_for_the_same_word_count():
    assert Bm25(CORPUS).ranking("beach") == [4, 3]


def test_bm25_leaves_out_turns_that_share_no_word_and_queries_of_function_words_only():
    index = Bm25(CORPUS)
    assert index.ranking("support group") == [0, 2]
    assert index.ranking("what did they do with the") == []
    assert index.ranking("volcano") == []


def test_bm25_keeps_at_most_limit_turns():
    assert len(Bm25(CORPUS).ranking("Caroline Melanie", limit=3)) == 3
    assert Bm25([]).ranking("anything") == []


def test_bm25_ties_keep_the_turns_order():
    assert Bm25(["red fox", "red fox", "blue"]).ranking("fox") == [0, 1]


def test_cosine_ranks_by_angle_not_by_length():
    vectors = np.array([[0.0, 1.0], [10.0, 7.0], [1.0, 0.0], [5.0, 0.5]], dtype=np.float32)
    assert cosine_ranking(vectors, np.array([1.0, 0.1], dtype=np.float32)) == [3, 2, 1, 0]
    assert cosine_ranking(vectors, np.array([1.0, 0.1], dtype=np.float32), limit=2) == [3, 2]
    assert cosine_ranking(np.zeros((0, 2), dtype=np.float32), np.array([1.0, 0.0])) == []

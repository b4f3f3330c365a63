"""A memory that only asks about the question's words tells nothing of them: it ranks below the
one that says something, and says why (signals.only_asks)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import override_settings

from memory.ingest.english.topics import topic_words
from memory.search.asking import READ_CHARS, only_asks
from memory.search.conductor import memory_search
from tests.reliability.test_hostile_text import BLOCKS

BUDGET_SECONDS = 0.05  # wide: a memory's head costs well under a millisecond; this fails what grows with length


@pytest.mark.parametrize(
    ("memory", "asks"),
    [
        ("John: Thanks! I won't give up on it. What got you into books?", True),
        ("John: Have you come across any interesting books lately?", True),
        ("John: What book are you reading? Is it any good?", True),
        ("John: I've been reading this inspiring book, it reminds me to keep dreaming.", False),
        ("John: I read Dune last month. Have you read any good books?", False),  # it says what he read
        ("John: Thanks, Tim! See you at the game?", False),  # nothing of the question's words: its meaning decides
        ("user: Which book of his is the best known?", True),
        ("user: Can you list his books? I'd rather read the short ones.", False),  # asks for work, and says a wish
        ("user: Which book should I start with?", False),  # asks for advice: a request for work
        ("user: Done. Can I get a count of the books I read this year?", False),
        ("Tim: So could we swap books next week?", False),
        ("assistant: Start with Dune: it is the classic.", False),
    ],
)
def test_a_memory_only_asks_when_every_sentence_sharing_the_questions_words_is_a_question(memory, asks):
    assert only_asks(memory, topic_words("What books has John read?")) is asks


def test_a_query_without_topic_words_finds_no_memory_asking():
    assert only_asks("What is it?", topic_words("what is it")) is False


def test_only_the_head_of_a_long_memory_is_read():
    memory = "Where did you find the book? " + "x" * (READ_CHARS * 50) + " I read the book on the train."
    assert only_asks(memory, topic_words("Which book did I read?")) is True


def results(actor, query: str) -> list[dict]:
    return memory_search(actor=actor, query=query, user_id="bob", limit=5)["results"]


@pytest.mark.django_db
def test_the_turn_that_tells_ranks_above_the_turn_that_only_asks(team, add):
    add("Tim: Read any good books lately?", extract=False)
    add("Tim: Lately I read fantasy books, Rothfuss mostly.", extract=False)
    query = "What books has Tim read?"

    with override_settings(HELIX_SEARCH_ASKING_WEIGHT=0):
        before = results(team["writer"], query)
    after = results(team["writer"], query)

    assert [r["content"] for r in before] == [
        "Tim: Read any good books lately?",
        "Tim: Lately I read fantasy books, Rothfuss mostly.",
    ]
    assert [r["signals"]["only_asks"] for r in before] == [False, False]  # not looked for
    assert [r["content"] for r in after] == [
        "Tim: Lately I read fantasy books, Rothfuss mostly.",
        "Tim: Read any good books lately?",
    ]
    assert [r["signals"]["only_asks"] for r in after] == [False, True]


def test_a_hostile_memory_is_read_within_a_budget():
    """Each hostile family at the message limit: only its head is read, whatever its length."""
    topics = topic_words("What books has John read now and then?")
    slow = {}
    for block in BLOCKS:
        memory = (block * (settings.HELIX_MAX_MESSAGE_BYTES // len(block)))[: settings.HELIX_MAX_MESSAGE_BYTES // 4]
        took = min(_seconds(lambda: only_asks(memory, topics)) for _ in range(3))  # noqa: B023 (called here)
        if took > BUDGET_SECONDS:
            slow[block] = took
    assert slow == {}


def _seconds(run) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started

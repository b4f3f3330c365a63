"""An identifier is read as its parts too, wherever words are compared with a question's (the
restatements' words beside a value, an excerpt's pieces): one definition for both."""

from __future__ import annotations

import time

import pytest

from memory.ingest.english.topics import topic_words, topic_words_with_parts
from memory.ingest.enrich import _left_unsaid


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        ("parse/parse_hallam_10k", "hallam parse"),
        ("freeze_tokens", "freeze tokens"),
        ("send-report", "send report"),
        ("publishReleaseBundle", "publish release bundle"),
        ("cost_report.py", "cost report"),
    ],
)
def test_an_identifier_holds_the_words_of_its_parts(said, parts):
    assert topic_words(parts) <= topic_words_with_parts(said)


def test_a_word_as_said_is_kept_beside_its_parts():
    assert topic_words("parse_hallam_10k") <= topic_words_with_parts("parse_hallam_10k")
    assert topic_words_with_parts("The backups run nightly.") == topic_words("The backups run nightly.")


@pytest.mark.parametrize("block", ["z", "a'", "'", "a-", "a_.", " ", "é", "ing", "a's "])
def test_whether_a_message_is_left_unsaid_is_read_in_linear_time(block):
    """The worker reads every owner's message this way (memory.ingest.enrich): hostile text costs
    in proportion to its length, sixteen times the text at most about sixteen times the time."""
    short, long = block * 4_000, block * 64_000
    started = time.perf_counter()
    _left_unsaid(short, [short[:100]])
    small = time.perf_counter() - started
    started = time.perf_counter()
    _left_unsaid(long, [long[:100]])
    assert time.perf_counter() - started < max(small * 16 * 4, 0.5), block

"""An identifier is read as its parts too, wherever words are compared with a question's (the
restatements' words beside a value, an excerpt's pieces): one definition for both."""

from __future__ import annotations

import pytest

from memory.ingest.english.topics import topic_words, topic_words_with_parts


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

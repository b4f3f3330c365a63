"""Negation: whether a statement denies what it says, and what it says once the denial is
taken out, so that a denial can be compared with the statement it denies."""

from __future__ import annotations

import re

from memory.ingest.english.topics import content_words

NEGATION = re.compile(
    r"\b(?:not|no longer|never|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|can't|cannot|won't|hasn't|haven't|"
    r"does not|do not|did not|is not|are not|anymore|any more)\b|\bno\s+(?!longer)",
    re.IGNORECASE,
)


def is_negated(sentence: str) -> bool:
    """Whether the sentence says "not", "never", "no longer" or the like anywhere."""
    return bool(NEGATION.search(sentence))


def without_negation(text: str) -> set[str]:
    """The content words of ``text`` with its negation and the auxiliaries it needs taken out."""
    return content_words(NEGATION.sub(" ", text)) - {"does", "do", "did", "anymore", "longer"}

"""What a statement is about: the words that carry its meaning, and the rough stems of those
that name its topic. The decision stage compares them between a new statement and the stored
ones, and a change (see ``changes``) names its topic with them."""

from __future__ import annotations

import re

from memory.ingest.english.wordlists import word_list

STOPWORDS = frozenset(word_list("stopwords"))
_FILLER_WORDS = frozenset(word_list("filler_words"))


def content_words(text: str) -> set[str]:
    """Lower-case words that carry meaning: for comparing what two statements say."""
    words = re.findall(r"[a-z0-9][a-z0-9'\-_./]*", text.lower())
    return {w.strip("'.") for w in words if w not in STOPWORDS and len(w) > 1}


def topic_words(text: str) -> set[str]:
    """The words of a text that name its topic, reduced to a rough stem ('owns', 'owning' → 'own')."""
    words = {w for w in content_words(text) if w not in _FILLER_WORDS and w not in STOPWORDS}
    return {_stem(w) for w in words if not w.startswith(("i'", "we'"))} - {"i"}


# An identifier is read as its parts too: "parse_hallam_10k" and "parse/parse_hallam_10k" name the
# Hallam parse, "freeze-tokens" holds "freeze", "publishReleaseBundle" "release".
_IDENTIFIER_JOINS = re.compile(r"[_/.\-]+|(?<=[a-z])(?=[A-Z])")


def topic_words_with_parts(text: str) -> set[str]:
    """``topic_words`` of ``text`` as said, and of its identifiers' parts."""
    stems = topic_words(text)
    return stems | topic_words(_IDENTIFIER_JOINS.sub(" ", text)) if _IDENTIFIER_JOINS.search(text) else stems


# A rough stem of its own, not Snowball's (PostgreSQL's english one): a change's topic is stored in
# the memory's facets and compared with the topic of a new statement, so another stemmer would make
# the stored topics disagree with new ones ("smok" against "smoke", "plann sprint" against "plan sprint").
def _stem(word: str) -> str:
    word = word.removesuffix("'s").removesuffix("'")
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word

"""A memory that only asks: "John: Thanks! What got you into books?" shares the words of "What
books has John read?" and much of its meaning, yet it asks about them and tells nothing of them.
Such turns fill the places of the turns that answer: in the dev conversations 9 % of the top
ten's turns that are not evidence only ask, against 1 % of the turns that are (in the working
sessions 5 % against none of 192).

So a memory whose every sentence sharing a topic word with the query is a question has its
semantic score lowered by ``HELIX_SEARCH_ASKING_WEIGHT`` (``signals.only_asks``). One that shares
no word with the query keeps its score: it may say the answer in other words ("an hour with my
sketchbook is my reset" for "What helps Noor relax?"), and its meaning alone brought it here. A
request for work put as a question ("Can you plot per-class F1 for that run? I'd rather read plain
matplotlib", "Can I get a count of the quiet ones?") asks for something, not about it: it says what
its asker wants, and keeps its score.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.ingest.english.sentences import is_question, split_sentences
from memory.ingest.english.topics import topic_words
from memory.ingest.extract import speaker_label
from memory.search.standing import is_request

# Read in the first READ_CHARS of a memory: a turn that tells something says it early, and a long
# one (an assistant's answer full of code) costs a bounded read.
READ_CHARS = 1000
# A question that asks for something to be done or had: "Can I get …", "Could we …", "Would you …".
_POLITE_REQUEST = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|and|also|now|then)\W+)?(?:can|could|would|will)\s+(?:you|i|we)\b", re.I
)


def only_asks(content: str, query_topics: set[str]) -> bool:
    """Whether every sentence of ``content`` that shares one of ``query_topics`` is a question that
    asks for no work (and at least one sentence shares one)."""
    if not query_topics:
        return False
    asking, telling = _topics_asked_and_told(content[:READ_CHARS])
    return bool(asking & query_topics) and not telling & query_topics


# The same memories come back search after search (an owner's few hundred, read for each question
# about them): what a memory asks and tells is read once.
@lru_cache(maxsize=4096)
def _topics_asked_and_told(content: str) -> tuple[frozenset[str], frozenset[str]]:
    """The topic words of the sentences of ``content`` that ask about something, and of the others;
    none asked when no sentence asks."""
    said = speaker_label(content)[1]
    if "?" not in said:
        return frozenset(), frozenset()
    asking: list[str] = []
    telling: list[str] = []
    for sentence in split_sentences(said):
        (asking if _asks_about(sentence) else telling).append(sentence)
    if not asking:
        return frozenset(), frozenset()
    return frozenset(topic_words(" ".join(asking))), frozenset(topic_words(" ".join(telling)))


def _asks_about(sentence: str) -> bool:
    """A question that asks for no work."""
    return is_question(sentence) and _POLITE_REQUEST.match(sentence) is None and not is_request(sentence)

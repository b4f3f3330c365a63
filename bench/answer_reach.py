"""Whether what a question needs reaches the model: its gold answer, normalised, found in the normalised
text a tool hands over (the results of a search, the context packed for a prompt).

Normalised as reading-comprehension answers usually are (SQuAD's evaluation): lowercase, punctuation
and symbols deleted, the articles a, an and the left out, whitespace collapsed. The answer must
stand as whole words in the text: "7" is not found in "17".
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterable

ARTICLES = frozenset({"a", "an", "the"})
ASCII_PUNCTUATION = frozenset(string.punctuation)


def normalised(text: object) -> str:
    """``text`` (a number is read as its digits) lowercase, without punctuation, symbols or articles,
    its words one space apart."""
    lowered = str(text).lower()
    kept = "".join(ch for ch in lowered if ch not in ASCII_PUNCTUATION and unicodedata.category(ch)[0] not in "PS")
    return " ".join(word for word in kept.split() if word not in ARTICLES)


def holds_answer(answer: object, text: str) -> bool:
    """The normalised ``answer`` is a run of whole words of the normalised ``text``; an answer that
    normalises to nothing is never held."""
    wanted = normalised(answer)
    return bool(wanted) and f" {wanted} " in f" {normalised(text)} "


def holds_every_part(answer: object, text: str) -> bool:
    """An answer whose parts are apart ("Pi-hole; Jellyfin; Nextcloud": a list gathered from several
    turns) is held when each of its parts is; any other, when it is held whole."""
    parts = [part for part in str(answer).split("; ") if normalised(part)]
    return bool(parts) and all(holds_answer(part, text) for part in parts)


def answer_shares(
    rows: Iterable[tuple[str, object, dict[str, str]]],
) -> dict[str, tuple[int, dict[str, float]]]:
    """For rows of (category, answer, the text of each source), the number of questions with an answer
    and, for each source, the share of them whose text holds it: for "all", then for each category in
    the order its first question comes. A question whose answer normalises to nothing is not counted."""
    held: dict[str, dict[str, int]] = {}
    counts: dict[str, int] = {}
    for category, answer, texts in rows:
        if not normalised(answer):
            continue
        for group in ("all", category):
            counts[group] = counts.get(group, 0) + 1
            tally = held.setdefault(group, {})
            for source, text in texts.items():
                tally[source] = tally.get(source, 0) + holds_every_part(answer, text)
    return {group: (counts[group], {s: n / counts[group] for s, n in held[group].items()}) for group in counts}

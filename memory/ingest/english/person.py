"""First-person attribution: "I moved to Berlin" said by alice is stored as "alice moved to
Berlin", so that a memory reads the same whoever later recalls it."""

from __future__ import annotations

import re

from memory.ingest.english.wordlists import word_list

_MODALS = {"can", "could", "should", "must", "might", "may", "would", "will", "shall", "need", "ought"}
_ADVERBS = frozenset(word_list("adverbs"))
# Kept by hand, not read from an inflection library (lemminflect): that one takes "rent" for the past
# of "rend" ("alice rent a flat") and knows pasts this list lacks ("I swam" is "alice swams" here), so
# it would change the stored text, and with it the content key, of memories already made.
_PAST_IRREGULAR = frozenset(word_list("irregular_past"))
_IRREGULAR_PRESENT = {"have": "has", "be": "is", "do": "does", "go": "goes", "am": "is"}


def third_person(verb: str) -> str:
    """'work' → 'works', 'go' → 'goes': a past tense or a modal stays as it is."""
    lowered = verb.lower()
    if lowered in _IRREGULAR_PRESENT:
        return _IRREGULAR_PRESENT[lowered]
    if lowered in _MODALS or lowered in _PAST_IRREGULAR or lowered.endswith("ed") or not lowered.isalpha():
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", lowered):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lowered):
        return verb[:-1] + "ies"
    return verb + "s"


_CONTRACTIONS = [
    (r"\bI'm\b|\bI am\b", "{s} is"),
    (
        r"\bI've\b|\bI have\b(?=\s+(?:been|had|got|done|made|never|always|lived|worked|used|seen|a|an|the|no|two|three|\d))",
        "{s} has",
    ),
    (r"\bI'll\b|\bI will\b", "{s} will"),
    (r"\bI'd\b", "{s} would"),
    (r"\bI don't\b|\bI do not\b", "{s} does not"),
    (r"\bI didn't\b|\bI did not\b", "{s} did not"),
    (r"\bI can't\b|\bI cannot\b", "{s} cannot"),
    (r"\bI won't\b", "{s} will not"),
    (r"\bI wasn't\b|\bI was not\b", "{s} was not"),
    (r"\bI was\b", "{s} was"),
]
_I_VERB = re.compile(r"\bI((?:\s+(?:" + "|".join(sorted(_ADVERBS)) + r"))*)\s+([A-Za-z]+)")


def attribute_first_person(sentence: str, subject: str) -> str:
    """'I moved to Berlin' → 'alice moved to Berlin'; 'my sister' → "alice's sister"."""
    text = sentence
    for pattern, replacement in _CONTRACTIONS:
        text = re.sub(pattern, replacement.format(s=subject), text)
    text = _I_VERB.sub(lambda m: f"{subject}{m.group(1)} {third_person(m.group(2))}", text)
    text = re.sub(r"\b[Mm]y\b|\bmine\b", f"{subject}'s", text)
    text = re.sub(r"\bme\b|\bmyself\b", subject, text)
    text = re.sub(r"\bI\b", subject, text)
    return text


def is_first_person(sentence: str) -> bool:
    return bool(re.search(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|myself)\b", sentence))

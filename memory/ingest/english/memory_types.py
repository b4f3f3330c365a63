"""Memory type: which kind of statement a sentence is (a fact, a preference, a goal, a
procedure, a health statement, …), read from the words that usually say it."""

from __future__ import annotations

import re

from memory.ingest.english.person import is_first_person
from memory.ingest.english.wordlists import word_list

# An infinitive opens a procedure too ("To deploy, run …"): "to " keeps its space, which keeps "today"
# out and which a list of words cannot hold.
IMPERATIVES = (*word_list("imperatives"), "to ")
_HEALTH_WORDS = "|".join(re.escape(w) for w in sorted(word_list("health_words"), key=len, reverse=True))
_TYPE_RULES: list[tuple[str, re.Pattern[str]]] = [
    # First: a health statement matters for safety whatever else it says ("I love peanuts but I'm
    # allergic to them", "I decided to stop taking metformin").
    ("health", re.compile(r"\b(?:" + _HEALTH_WORDS + r")\b|\b\d+(?:\.\d+)?\s?(?:mg|mcg|ml)\b")),
    (
        "decision",
        re.compile(
            r"\b(?:decided|decide to|we'?ll go with|we will go with|chose|chosen|settled on|agreed (?:to|on)|opted for|going with|picked)\b"
        ),
    ),
    (
        "goal",
        re.compile(
            r"\b(?:wants? to|plans? to|planning (?:to|on)|hopes? to|aims? to|goal is|intends? to|would like to|'d like to|trying to|dreams? of|going to|saving (?:up )?for)\b"
        ),
    ),
    (
        "preference",
        re.compile(
            r"\b(?:likes?|loves?|prefers?|preferred|favou?rite|enjoys?|hates?|dislikes?|can't stand|cannot stand|fan of|rather|vegetarian|vegan)\b"
        ),
    ),
    (
        "skill",
        re.compile(
            r"\b(?:can (?:speak|code|program|play|cook|drive|swim|read|write)|knows? how to|good at|skilled|proficient|fluent|experienced (?:in|with)|expert (?:in|at)|years of experience|certified|speaks)\b"
        ),
    ),
    (
        "opinion",
        re.compile(
            r"\b(?:i think|i believe|i feel|thinks|believes|in (?:my|\w+'s) opinion|i guess|seems to me|overrated|underrated|the best|the worst|should)\b"
        ),
    ),
    (
        "event",
        re.compile(
            r"\b(?:yesterday|today|tonight|tomorrow|last (?:week|month|year|night|\w+day)|next (?:week|month|year|\w+day)|ago|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d{4}-\d{2}-\d{2}|meeting|appointment|birthday|wedding|visited|attended|met with|graduated)\b"
        ),
    ),
]
_LIKE_AS_PREPOSITION = re.compile(
    r"\b(?:looks?|seems?|feels?|sounds?|something|just) like\b|\blike (?:a|an|the|this|that)\b"
)


def classify(sentence: str) -> str:
    """The memory type of a sentence: "procedure" for an instruction, the first rule that matches, else "fact"."""
    lowered = sentence.lower().strip()
    if not is_first_person(sentence) and lowered.startswith(IMPERATIVES) and not lowered.startswith("to be"):
        return "procedure"
    if re.search(r"\b(?:step \d|first,? .+ then|to (?:deploy|install|run|fix|build|reset)\b.+,)", lowered):
        return "procedure"
    for memory_type, pattern in _TYPE_RULES:
        if pattern.search(lowered):
            if (
                memory_type == "preference"
                and _LIKE_AS_PREPOSITION.search(lowered)
                and not re.search(r"\b(?:love|prefer|favou?rite|enjoy|hate)", lowered)
            ):
                continue
            return memory_type
    return "fact"

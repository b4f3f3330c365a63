"""Importance and certainty: how much a statement matters and how sure its speaker is."""

from __future__ import annotations

import re

_IMPORTANT = re.compile(
    r"\b(?:remember|important|always|never|must|don't forget|critical|allergic|deadline|password|key)\b", re.I
)
_HEDGES = re.compile(r"\b(?:maybe|perhaps|probably|might|i think|i guess|not sure|possibly|sort of|kind of)\b", re.I)


def importance(sentence: str, memory_type: str, entities: int) -> float:
    """0.05–1.0: higher when flagged ("remember", "allergic"), for a preference, goal, decision,
    procedure or health statement, and for each thing it names (up to three); lower for a very
    short statement."""
    score = 0.45
    if _IMPORTANT.search(sentence):
        score += 0.25
    if memory_type in {"preference", "goal", "decision", "procedure", "health"}:
        score += 0.1
    score += min(entities, 3) * 0.05
    if len(sentence.split()) < 4:
        score -= 0.15
    return round(min(max(score, 0.05), 1.0), 2)


def certainty(sentence: str) -> int:
    """85 for a plain statement, 55 for a hedged one ("maybe", "I think")."""
    return 55 if _HEDGES.search(sentence) else 85

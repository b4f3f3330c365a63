"""Filing by rules, offline and deterministic: what the extractor already read of a memory
(its concepts, the types of the entities it mentions) and cue words in its text.

A topic found by cue words wins; a preference about a topic is filed under
``preferences/<topic>``; entity types add a reference branch (links, contacts, code); with
nothing else, the memory's concept decides (``goals``, ``skills``…)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Topic → cue words. Order matters only for ties: the first topics are the more specific.
_TOPICS: list[tuple[str, re.Pattern[str]]] = [
    ("health/allergies", re.compile(r"\ballerg\w*|\bintoleran\w*|\banaphyla\w*", re.I)),
    (
        "health",
        re.compile(
            r"\b(?:doctor|dentist|medic\w*|symptom\w*|asthma|diabet\w*|hospital|prescri\w*|therap\w*|injur\w*|"
            r"sleep\w*|blood pressure|migraine\w*|vaccin\w*|gym|workout\w*)\b",
            re.I,
        ),
    ),
    (
        "work/infrastructure",
        re.compile(
            r"\b(?:server\w*|deploy\w*|kubernetes|k8s|docker|container\w*|postgres\w*|database\w*|redis|nginx|"
            r"terraform|ansible|aws|gcp|azure|cluster\w*|ci|cd|pipeline\w*|staging|production|backup\w*|"
            r"dns|load balancer\w*|vpn|firewall\w*|monitoring|grafana|prometheus)\b",
            re.I,
        ),
    ),
    (
        "work/code",
        re.compile(
            r"\b(?:code|repo\w*|git|branch\w*|commit\w*|pull request\w*|python|javascript|typescript|rust|golang|"
            r"java|django|react|api|bug\w*|refactor\w*|test suite|unit tests?|library|framework|linter)\b",
            re.I,
        ),
    ),
    (
        "work/meetings",
        re.compile(r"\b(?:meeting\w*|standup\w*|stand-up\w*|retro\w*|1:1|one-on-one|sync(?:-up)?|call with)\b", re.I),
    ),
    (
        "work",
        re.compile(
            r"\b(?:work\w*|job|employer|colleague\w*|manager|boss|team|project\w*|deadline\w*|sprint\w*|"
            r"release\w*|customer\w*|client\w*|office|promot\w*|salary|hired|career)\b",
            re.I,
        ),
    ),
    (
        "food",
        re.compile(
            r"\b(?:food|eat\w*|ate|meal\w*|cook\w*|recipe\w*|restaurant\w*|dinner|lunch|breakfast|vegetarian|vegan|"
            r"coffee|tea|wine|beer|pizza|sushi|ramen|pasta|spicy|dessert\w*|cuisine|gluten|dairy|peanut\w*)\b",
            re.I,
        ),
    ),
    (
        "travel",
        re.compile(
            r"\b(?:trip\w*|travel\w*|flight\w*|fly(?:ing)?|hotel\w*|vacation\w*|holiday\w*|airport|passport|visa|"
            r"itinerar\w*|abroad|tour\w*)\b",
            re.I,
        ),
    ),
    (
        "family",
        re.compile(
            r"\b(?:wife|husband|partner|son|daughter|kids?|children|child|mother|father|mom|mum|dad|sister|"
            r"brother|parents?|grand\w+|family|cousin\w*|aunt|uncle|baby|wedding|married)\b",
            re.I,
        ),
    ),
    (
        "home",
        re.compile(
            r"\b(?:lives? in|moved to|apartment|flat|house|home|rent\w*|mortgage|neighbou?r\w*|garden\w*|"
            r"landlord|relocat\w*)\b",
            re.I,
        ),
    ),
    (
        "finance",
        re.compile(r"\b(?:money|budget\w*|saving\w*|invest\w*|stock\w*|bank\w*|loan\w*|tax\w*|debt|pension)\b", re.I),
    ),
    (
        "learning",
        re.compile(
            r"\b(?:learn\w*|stud(?:y|ies|ying)|course\w*|class(?:es)?|universit\w*|degree|school|exams?|"
            r"certificat\w*|tutorial\w*|novels?|textbooks?)\b",
            re.I,
        ),
    ),
    (
        "hobbies",
        re.compile(
            r"\b(?:hobb\w*|marathons?|guitar|piano|music|band|concert\w*|hiking|hike\w*|running|cycling|climbing|chess|"
            r"paint\w*|photograph\w*|games?|gaming|football|soccer|tennis|yoga|knit\w*|fishing|movies?|films?)\b",
            re.I,
        ),
    ),
    ("pets", re.compile(r"\b(?:dog\w*|cat|cats|kitten\w*|puppy|puppies|pet\w*|vet)\b", re.I)),
]
# Topics a preference is filed under as preferences/<last segment>.
_PREFERENCE_TOPICS = {"food", "travel", "hobbies", "work/code", "home"}
_ENTITY_PATHS = {"url": "references/links", "email": "contacts", "person": "people", "path": "work/code"}
_CONCEPT_PATHS = {
    "preference": "preferences",
    "goal": "goals",
    "skill": "skills",
    "decision": "decisions",
    "procedure": "procedures",
    "achievement": "achievements",
    "experience": "events",
    "opinion": "opinions",
    "health": "health",
}
FALLBACK = "general"


@dataclass(frozen=True)
class Signals:
    """What the extractor read of one memory."""

    content: str
    memory_type: str
    concepts: frozenset[str] = frozenset()
    entity_types: frozenset[str] = frozenset()


def paths_by_rules(signals: Signals, *, limit: int = 3) -> list[str]:
    """The paths a memory is filed under, most specific first, at most ``limit``, never none."""
    topics = [topic for topic, cues in _TOPICS if cues.search(signals.content)]
    topics = [t for t in topics if not any(other != t and other.startswith(t + "/") for other in topics)]
    paths: list[str] = []
    for topic in topics[:2]:
        if "preference" in signals.concepts and topic in _PREFERENCE_TOPICS:
            paths.append("preferences/" + topic.rsplit("/", 1)[-1])
        else:
            paths.append(topic)
    paths += [_ENTITY_PATHS[t] for t in sorted(signals.entity_types) if t in _ENTITY_PATHS]
    if not topics:
        paths += [_CONCEPT_PATHS[c] for c in sorted(signals.concepts) if c in _CONCEPT_PATHS][:1]
    unique = list(dict.fromkeys(paths))
    return unique[:limit] or [FALLBACK]

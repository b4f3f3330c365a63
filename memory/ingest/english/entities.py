"""Entities: the URLs, e-mail addresses, paths, identifiers, quoted terms and names a
sentence mentions."""

from __future__ import annotations

import re

from memory.ingest.atoms import EntityRef
from memory.ingest.english.memory_types import IMPERATIVES
from memory.ingest.english.wordlists import word_list

_ENTITY_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("url", re.compile(r"https?://[^\s)\"'>]+")),
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")),
    ("identifier", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")),
    ("path", re.compile(r"(?<![\w/])(?:~|\.{1,2})?/(?:[\w.\-]+/)*[\w.\-]+|\b[A-Za-z]:\\[\w\\.\-]+")),
    (
        "path",
        re.compile(
            r"\b[\w\-]+\.(?:py|js|ts|tsx|yaml|yml|json|toml|md|txt|go|rs|java|rb|sh|sql|html|css|cfg|ini|conf|log|csv|env)\b"
        ),
    ),
    (
        "identifier",
        re.compile(
            r"\b[A-Z]{2,}-\d+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]+\d+[A-Z0-9]*\b|\b(?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{7,40}\b"
        ),
    ),
    ("term", re.compile(r"`([^`]{2,60})`|(?:^|(?<=\s))\"([^\"]{2,60})\"|(?:^|(?<=\s))'([^']{2,60})'(?=[\s.,;!?]|$)")),
]
NAME = re.compile(r"\b[A-Z][\w\-]*(?:\s+(?:of|de|van|von|la|del|da)?\s*[A-Z][\w\-]*)*")
NOT_NAMES = frozenset(word_list("not_names"))


_COMMON_OPENERS = {"there", "here", "someone", "everyone", "nobody", "everything", "nothing", "sometimes", "usually"}


def _is_sentence_opener(match: re.Match[str], text: str) -> bool:
    """A lone capitalized first word is usually just the start of the sentence."""
    word = match.group(0).strip()
    at_start = match.start() == len(text) - len(text.lstrip())
    return at_start and " " not in word and (word.lower().startswith(IMPERATIVES) or word.lower() in _COMMON_OPENERS)


def find_entities(sentence: str, *, subject: str | None = None) -> list[EntityRef]:
    """Each thing the sentence mentions once, the patterns first (their text is then masked,
    so a path is no name), then the capitalised names other than ``subject``."""
    found: dict[tuple[str, str], EntityRef] = {}
    masked = sentence
    for entity_type, pattern in _ENTITY_PATTERNS:
        for match in pattern.finditer(masked):
            name = next((g for g in match.groups() if g), None) if match.groups() else match.group(0)
            if name:
                name = name.rstrip(".,;:")
                found.setdefault((name.lower(), entity_type), EntityRef(name, entity_type))
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    for match in NAME.finditer(masked):
        if _is_sentence_opener(match, masked):
            continue
        words = [w for w in match.group(0).split() if w not in NOT_NAMES]
        name = " ".join(words).strip("'")
        if name and name != subject and not name.lower().startswith(("i'", "it'")):
            found.setdefault((name.lower(), "name"), EntityRef(name, "name"))
    return list(found.values())

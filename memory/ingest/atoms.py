"""What extraction produces and the later stages consume."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field

from memory.ingest.english.values import ValueStatement, held_values

PROTECTED_TYPES = frozenset({"preference", "goal", "opinion"})


@dataclass(frozen=True)
class EntityRef:
    name: str
    entity_type: str

    @property
    def normalized(self) -> str:
        return normalize_text(self.name)


@dataclass(frozen=True)
class Attribute:
    """A single-valued property: (subject, name) holds one value at a time."""

    subject: str
    name: str
    value: str
    single_valued: bool = True

    def as_list(self) -> list:
        return [self.subject, self.name, self.value, self.single_valued]


@dataclass(frozen=True)
class Change:
    """What a statement says about an earlier one: it ``ends`` or ``reschedules`` the thing
    named by ``topic`` (a later statement replaces it), ``retracts`` it (it was never true),
    or ``adds`` to it (it stands beside it)."""

    kind: str
    topic: str = ""

    def as_list(self) -> list:
        return [self.kind, self.topic]


@dataclass
class Atom:
    content: str
    memory_type: str = "fact"
    importance: float = 0.5
    certainty: int = 80
    entities: list[EntityRef] = field(default_factory=list)
    attribute: Attribute | None = None
    negated: bool = False
    change_cue: str | None = None
    change: Change | None = None
    speaker: str | None = None  # who said it, when the message is a line of a transcript
    standing: bool = False  # a rule for the assistant's later work, or how the owner likes things done
    values: list[ValueStatement] = field(default_factory=list)  # what it says things' values are
    # (index of another atom of the same message, edge type from this atom to it)
    links: list[tuple[int, str]] = field(default_factory=list)

    @property
    def facets(self) -> dict:
        facets: dict = {"negated": self.negated}
        if self.attribute is not None:
            facets["attribute"] = self.attribute.as_list()
        if self.change_cue:
            facets["change_cue"] = self.change_cue
        if self.change is not None:
            facets["change"] = self.change.as_list()
        if self.speaker:
            facets["speaker"] = self.speaker
        if self.standing:
            facets["standing"] = True
        held = held_values(self.values)
        if held:
            facets["values"] = {key: value.as_list() for key, value in held.items()}
        return facets


@dataclass
class Extraction:
    atoms: list[Atom]
    method: str  # llm | rules | verbatim | fallback
    dropped: list[str] = field(default_factory=list)
    relations: list[tuple[str, str, str]] = field(default_factory=list)
    problem: str = ""


def normalize_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = re.sub(r"\s+", " ", text).strip()
    return text.rstrip(".!;:, ")


def content_key(*, scope: str, memory_type: str, content: str) -> str:
    """The fingerprint: sha256 of write domain, type and normalized text."""
    return hashlib.sha256(f"{scope}\x1f{memory_type}\x1f{normalize_text(content)}".encode()).hexdigest()

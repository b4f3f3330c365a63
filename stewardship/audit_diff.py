"""An audit line's before and after as a reader compares them: per key, what it was and what it
became, only the keys that changed, each value in words rather than as JSON. A line that records
no mapping (a list, a text) is one change without a key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SHOWN_CHARS = 300  # of one value; the trail keeps it whole
ABSENT = object()


@dataclass(frozen=True)
class KeyChange:
    key: str
    before: str
    after: str


def audit_diff(before: Any, after: Any) -> list[KeyChange]:
    """What changed from ``before`` to ``after`` (either may be None: created, or removed)."""
    if isinstance(before, dict | None) and isinstance(after, dict | None):
        was, now = before or {}, after or {}
        keys = sorted(set(was) | set(now), key=str)
        pairs = [(str(key), readable(was.get(key, ABSENT)), readable(now.get(key, ABSENT))) for key in keys]
    else:
        pairs = [("", readable(before), readable(after))]
    # Compared in words: a key created empty ("– → –") says nothing a reader could act on.
    return [KeyChange(key, _cut(old), _cut(new)) for key, old, new in pairs if old != new]


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def readable(value: Any) -> str:
    """A stored JSON value in words: – for none, yes/no, a list joined by commas, a mapping as
    "key: value" pairs."""
    if value is ABSENT or value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(readable(item) for item in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{key}: {readable(item)}" for key, item in value.items()) if value else "none"
    if value == "":
        return "(empty)"
    return str(value)

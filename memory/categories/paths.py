"""What a category path may be: at most four lowercase segments of letters, digits and
hyphens, joined by ``/``. Whatever names a category (rules, the LLM, a caller's filter) goes
through ``path_normalize``: ``Work / Infrastructure`` is ``work/infrastructure``."""

from __future__ import annotations

import re
import unicodedata

from memory.categories.models import MAX_DEPTH, MAX_SEGMENT

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def path_normalize(text: str) -> str | None:
    """The path ``text`` names, or None when it names none (empty, too deep, no letters)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    segments = [_NOT_SLUG.sub("-", part).strip("-")[:MAX_SEGMENT].strip("-") for part in ascii_text.split("/")]
    segments = [s for s in segments if s]
    if not segments or len(segments) > MAX_DEPTH:
        return None
    return "/".join(segments)


def lineage(path: str) -> list[str]:
    """``a/b/c`` → ``["a", "a/b", "a/b/c"]``."""
    segments = path.split("/")
    return ["/".join(segments[: i + 1]) for i in range(len(segments))]

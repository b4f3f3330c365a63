"""Arrays sent as one value: psycopg adapts a list parameter element by element in Python, about
0.8 µs an id, and a search sends a few hundred ids (its candidates, the hits whose edges it reads).
PostgreSQL reads the text of an array literal as it reads the adapted list."""

from __future__ import annotations

import uuid
from collections.abc import Iterable


def uuid_array(ids: Iterable[uuid.UUID]) -> str:
    """``ids`` as the text of a ``uuid[]`` literal, for a parameter cast ``::uuid[]``: each written
    as ``uuid.UUID`` writes itself (hex digits and dashes), so nothing else can enter the literal."""
    texts = []
    for memory_id in ids:
        if not isinstance(memory_id, uuid.UUID):
            raise TypeError(f"not a UUID: {memory_id!r}")
        texts.append(str(memory_id))
    return "{" + ",".join(texts) + "}"

"""What scoring and a result read of a memory, as plain rows.

A search reads a few hundred candidates and keeps ten: building a model instance for each
(its fields, its deferred columns, its JSON decoded twice) took about half the time of the
whole read. Vectors and the text index stay in the database; each row comes with its cosine
to the query, computed there.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import NamedTuple

from psycopg.types.datetime import TimestamptzLoader

from helixsite.db.arrays import uuid_array
from helixsite.db.replicas import prepared_reader
from memory.search.expand import Reached, Walk
from memory.search.seeds import vector_text


class Recalled(NamedTuple):
    """A candidate as scoring and a result read it. A tuple: as immutable as a frozen dataclass,
    made without one ``object.__setattr__`` a field (0.27 against 1.5 µs a row, a few hundred rows
    a search)."""

    id: uuid.UUID
    content: str
    memory_type: str
    user_id: str
    agent_id: str
    importance: float
    content_key: str
    created_at: datetime
    updated_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    cosine: float
    metadata_stored: str | dict | None  # as read: decoded when a result shows it (``metadata``)
    facets: dict

    @property
    def metadata(self) -> dict:
        """A few hundred candidates are scored, ten are shown: only those read their metadata."""
        return _json(self.metadata_stored)


_COLUMNS = """m.id, m.content, m.memory_type, m.user_id, m.agent_id, m.importance, m.content_key, m.created_at,
    m.updated_at, m.valid_from, m.valid_to, m.expires_at, 1 - (m.embedding <=> %(vec)s::vector), m.metadata, m.facets"""


def recalled(ids: list[uuid.UUID], vector) -> dict[uuid.UUID, Recalled]:
    """The memories of ``ids`` (already known visible) with their cosines to ``vector``."""
    if not ids:
        return {}
    with prepared_reader() as cursor:
        _read_timestamps_in_c(cursor)
        cursor.execute(
            f"SELECT {_COLUMNS} FROM memory_memory m WHERE m.id = ANY(%(ids)s::uuid[])",
            {"ids": uuid_array(ids), "vec": vector_text(vector)},
        )
        rows = cursor.fetchall()
    return {row[0]: _recalled(row) for row in rows}


def recalled_with(
    walk: Walk, ids: list[uuid.UUID], vector
) -> tuple[dict[uuid.UUID, Recalled], dict[uuid.UUID, Reached]]:
    """The memories of ``ids`` and those the walk reaches from its seeds (memory.search.expand),
    read in one statement, and how the walk reached each of its own."""
    if not walk.goes_anywhere:
        return recalled(ids, vector), {}
    walked, params = walk.sql()
    with prepared_reader(walk.scope.steady()) as cursor:
        _read_timestamps_in_c(cursor)
        cursor.execute(
            f"""WITH {walked}
                SELECT {_COLUMNS}, r.depth, r.edge_type, r.via
                FROM memory_memory m LEFT JOIN reached r ON r.id = m.id
                WHERE m.id = ANY(%(ids)s::uuid[] || ARRAY(SELECT id FROM reached))""",
            {**params, "ids": uuid_array(ids), "vec": vector_text(vector)},
        )
        rows = cursor.fetchall()
    # After the memory's own columns, how the walk reached it (depth, edge type, via), or nulls.
    reached = {row[0]: Reached(*row[15:]) for row in rows if row[15] is not None}
    return {row[0]: _recalled(row) for row in rows}, dict(sorted(reached.items()))


def _read_timestamps_in_c(cursor) -> None:
    """psycopg's own timestamp parser, in C: Django's, which also sets the connection's time zone
    (UTC, as the session's already is), parses in Python, a third of this read's time for four
    timestamps a row. The same instants come back."""
    cursor.cursor.adapters.register_loader("timestamptz", TimestamptzLoader)


def _recalled(row: tuple) -> Recalled:
    memory_id, content, kind, owner, agent, importance, key, created, updated, start, end, expires = row[:12]
    cosine, metadata, facets = row[12:15]
    return Recalled(
        memory_id,
        content,
        kind,
        owner,
        agent,
        importance,
        key,
        created,
        updated,
        start,
        end,
        expires,
        float(cosine),
        metadata,
        _json(facets),
    )


def _json(value) -> dict:
    """jsonb arrives as text (Django's loader leaves its decoding to the field)."""
    return json.loads(value) if isinstance(value, str) else (value or {})

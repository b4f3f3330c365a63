"""Stage 2: walk typed edges out from the seeds, up to the requested depth.

Every step lands only on live memories the actor can see (of the owner, for a personal
search), so no path passes through, or ends at, anything outside the actor's reach.
The walk may cross the time window: rows it finds outside become flashbacks.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from helixsite.db.arrays import uuid_array
from helixsite.db.replicas import prepared_reader, reader
from memory.search.scope import Scope


@dataclass(frozen=True)
class Reached:
    depth: int
    edge_type: str
    via: uuid.UUID


@dataclass(frozen=True)
class Link:
    source: uuid.UUID
    target: uuid.UUID
    edge_type: str
    confidence: float


# A memory reached through an edge is checked by its primary key, one edge at a time. The planner
# takes one owner's memories in a workspace for a handful (the owner and the workspace filters are
# correlated, and it multiplies their shares), so joined plainly it read all of them, hundreds, to
# keep the few an edge leads to. OFFSET 0 keeps the subquery a lookup of its own.
BY_KEY = "OFFSET 0"


@dataclass(frozen=True)
class Walk:
    """A walk out from ``seeds``, at most ``depth`` edges and ``limit`` memories reached, read in
    the same statement as the rows it reaches (memory.search.rows.recalled_with): one round trip
    fewer on every search's critical path."""

    scope: Scope
    seeds: list[uuid.UUID]
    depth: int
    limit: int

    @property
    def goes_anywhere(self) -> bool:
        return self.depth > 0 and bool(self.seeds) and self.limit > 0

    def sql(self) -> tuple[str, dict]:
        """The common table expressions ending in ``reached(id, depth, edge_type, via)``: each
        memory reached, not a seed, by its shortest way, ordered by id."""
        visible, params = self.scope.sql(alias="n")
        sql = f"""RECURSIVE walk(id, depth, edge_type, via, path) AS (
                SELECT s.id, 0, NULL::varchar, NULL::uuid, ARRAY[s.id] FROM unnest(%(seeds)s::uuid[]) AS s(id)
              UNION ALL
                SELECT n.id, w.depth + 1, e.edge_type, w.id, w.path || n.id
                FROM walk w
                JOIN memory_edge e ON e.expired_at IS NULL AND (e.source_id = w.id OR e.target_id = w.id)
                CROSS JOIN LATERAL (
                    SELECT n.id FROM memory_memory n
                    WHERE n.id = CASE WHEN e.source_id = w.id THEN e.target_id ELSE e.source_id END AND {visible}
                    {BY_KEY}
                ) n
                WHERE w.depth < %(depth)s AND NOT n.id = ANY(w.path)
            ),
            reached AS MATERIALIZED (
                SELECT DISTINCT ON (id) id, depth, edge_type, via FROM walk
                WHERE depth > 0 AND NOT id = ANY(%(seeds)s::uuid[])
                ORDER BY id, depth LIMIT %(limit)s
            )"""
        return sql, {**params, "seeds": uuid_array(self.seeds), "depth": self.depth, "limit": self.limit}


def links_among(ids: list[uuid.UUID]) -> list[Link]:
    """The live edges between the given memories (all of them visible already)."""
    if not ids:
        return []
    with reader().cursor() as cursor:
        cursor.execute(
            """SELECT source_id, target_id, edge_type, confidence FROM memory_edge
               WHERE expired_at IS NULL AND source_id = ANY(%(ids)s::uuid[]) AND target_id = ANY(%(ids)s::uuid[])""",
            {"ids": ids},
        )
        return [Link(*row) for row in cursor.fetchall()]


@dataclass
class Around:
    """The edges the answer is shaped by, for hits already ranked."""

    # hit → what superseded it, newest first: wholly (the hit has ``valid_to``) or in part (a
    # longer memory, still current, of which a later value of one thing replaced what it said)
    superseded_by: dict[uuid.UUID, list[uuid.UUID]]
    retracted_by: dict[uuid.UUID, list[uuid.UUID]]
    families: dict[uuid.UUID, uuid.UUID]
    # top hit → the visible memories it supersedes, wholly or in part
    supersedes: dict[uuid.UUID, list[uuid.UUID]] = field(default_factory=dict)


def edges_around(scope: Scope, *, hits: list[uuid.UUID], top: list[uuid.UUID]) -> Around:
    """In one statement: what visibly superseded any of the ``hits``, newest first; what the
    ``top`` hits supersede, if visible; which visible retractions contradict the ``top`` hits; and
    the PART_OF links (atom → raw source) touching the ``top`` hits."""
    around = Around({}, {}, {})
    if not hits and not top:
        return around
    visible, params = scope.sql(alias="m")
    by_source = f"""FROM memory_edge e CROSS JOIN LATERAL (
        SELECT m.created_at, m.facets FROM memory_memory m WHERE m.id = e.source_id AND {visible} {BY_KEY}
    ) m WHERE e.expired_at IS NULL"""
    by_target = f"""FROM memory_edge e CROSS JOIN LATERAL (
        SELECT m.created_at FROM memory_memory m WHERE m.id = e.target_id AND {visible} {BY_KEY}
    ) m WHERE e.expired_at IS NULL"""
    with prepared_reader(scope.steady()) as cursor:
        cursor.execute(
            f"""SELECT 'S', e.target_id, e.source_id, m.created_at {by_source} AND e.edge_type = 'SUPERSEDES'
                    AND e.target_id = ANY(%(hits)s::uuid[])
                UNION ALL
                SELECT 'B', e.source_id, e.target_id, m.created_at {by_target} AND e.edge_type = 'SUPERSEDES'
                    AND e.source_id = ANY(%(top)s::uuid[])
                UNION ALL
                SELECT 'R', e.target_id, e.source_id, m.created_at {by_source} AND e.edge_type = 'CONTRADICTS'
                    AND e.target_id = ANY(%(top)s::uuid[]) AND m.facets -> 'change' ->> 0 = 'retracts'
                UNION ALL
                SELECT 'P', e.source_id, e.target_id, NULL FROM memory_edge e WHERE e.expired_at IS NULL
                    AND e.edge_type = 'PART_OF'
                    AND (e.source_id = ANY(%(top)s::uuid[]) OR e.target_id = ANY(%(top)s::uuid[]))
                ORDER BY 4 DESC NULLS LAST""",
            {**params, "hits": uuid_array(hits), "top": uuid_array(top)},
        )
        kinds = {"S": around.superseded_by, "B": around.supersedes, "R": around.retracted_by}
        for kind, a, b, _ in cursor.fetchall():
            if kind == "P":
                around.families[a] = b
            else:
                kinds[kind].setdefault(a, []).append(b)
    return around

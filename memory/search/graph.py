"""Graph reads over typed edges: reasoning chains, a path between two memories, and a
bounded neighbourhood. Every step lands only on live memories the actor can see."""

from __future__ import annotations

import uuid
from collections import deque
from dataclasses import dataclass

from helixsite.db.replicas import reader
from memory.search.scope import Scope

REASONING = ("IMPLIES", "BECAUSE", "CONTRADICTS", "SUPPORTS")
# Which way to walk each edge type for each direction: "out" follows source → target.
DIRECTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    # causes of X: X BECAUSE y (out), y IMPLIES X (in), y SUPPORTS X (in)
    "causal": {"BECAUSE": ("out",), "IMPLIES": ("in",), "SUPPORTS": ("in",)},
    # consequences of X: X IMPLIES y (out), y BECAUSE X (in)
    "forward": {"IMPLIES": ("out",), "BECAUSE": ("in",), "SUPPORTS": ("out",)},
    "both": {"BECAUSE": ("out", "in"), "IMPLIES": ("out", "in"), "SUPPORTS": ("out", "in")},
    "deep": {t: ("out", "in") for t in REASONING},
}


@dataclass(frozen=True)
class Step:
    source: uuid.UUID
    target: uuid.UUID
    edge_type: str
    confidence: float
    reversed: bool = False  # walked from the edge's target to its source


def neighbours(scope: Scope, frontier: list[uuid.UUID], types: tuple[str, ...] | None = None) -> list[Step]:
    """Edges touching ``frontier`` whose other end is visible and live."""
    if not frontier:
        return []
    visible, params = scope.sql(alias="n")
    type_filter = "AND e.edge_type = ANY(%(types)s)" if types else ""
    sql = f"""
        SELECT e.source_id, e.target_id, e.edge_type, e.confidence
        FROM memory_edge e
        JOIN memory_memory n
          ON n.id = CASE WHEN e.source_id = ANY(%(frontier)s::uuid[]) THEN e.target_id ELSE e.source_id END
        WHERE e.expired_at IS NULL
          AND (e.source_id = ANY(%(frontier)s::uuid[]) OR e.target_id = ANY(%(frontier)s::uuid[]))
        {type_filter} AND {visible}"""
    with reader().cursor() as cursor:
        cursor.execute(sql, {**params, "frontier": frontier, "types": list(types or ())})
        return [Step(s, t, kind, conf, reversed=False) for s, t, kind, conf in cursor.fetchall()]


def reasoning_chains(scope: Scope, seeds: list[uuid.UUID], *, direction: str, max_depth: int) -> list[list[Step]]:
    """Every maximal chain from each seed along the direction's edges, at most ``max_depth`` steps."""
    rules = DIRECTIONS[direction]
    chains: list[list[Step]] = []
    for seed in seeds:
        queue: deque[tuple[uuid.UUID, list[Step]]] = deque([(seed, [])])
        while queue:
            node, trail = queue.popleft()
            visited = {seed, *(s.target if not s.reversed else s.source for s in trail)}
            extended = False
            if len(trail) < max_depth:
                for step in neighbours(scope, [node], tuple(rules)):
                    walk_out = step.source == node
                    nxt = step.target if walk_out else step.source
                    if nxt in visited or ("out" if walk_out else "in") not in rules[step.edge_type]:
                        continue
                    queue.append(
                        (nxt, [*trail, Step(step.source, step.target, step.edge_type, step.confidence, not walk_out)])
                    )
                    extended = True
            if trail and not extended:
                chains.append(trail)
    return chains


def shortest_path(scope: Scope, start: uuid.UUID, goal: uuid.UUID, *, max_depth: int) -> list[Step] | None:
    """Breadth-first over edges in both directions, inside visibility."""
    if start == goal:
        return []
    came_from: dict[uuid.UUID, Step | None] = {start: None}
    frontier = [start]
    for _ in range(max_depth):
        next_frontier = []
        for step in neighbours(scope, frontier):
            for here, there in ((step.source, step.target), (step.target, step.source)):
                if here in frontier and there not in came_from:
                    came_from[there] = Step(
                        step.source, step.target, step.edge_type, step.confidence, here == step.target
                    )
                    next_frontier.append(there)
        if goal in came_from:
            return _trail(came_from, goal)
        frontier = next_frontier
        if not frontier:
            return None
    return None


def _trail(came_from: dict[uuid.UUID, Step | None], goal: uuid.UUID) -> list[Step]:
    steps: list[Step] = []
    node = goal
    while (step := came_from[node]) is not None:
        steps.append(step)
        node = step.target if step.reversed else step.source
    return list(reversed(steps))


def neighbourhood(scope: Scope, center: uuid.UUID, *, depth: int, limit: int) -> tuple[set[uuid.UUID], list[Step]]:
    nodes, edges, frontier = {center}, {}, [center]
    for _ in range(depth):
        found = neighbours(scope, frontier)
        frontier = []
        for step in found:
            edges[(step.source, step.target, step.edge_type)] = step
            for node in (step.source, step.target):
                if node not in nodes and len(nodes) < limit:
                    nodes.add(node)
                    frontier.append(node)
        if not frontier:
            break
    return nodes, [e for e in edges.values() if e.source in nodes and e.target in nodes]

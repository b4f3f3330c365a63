"""A request for work gets the reply to the earlier ask it repeats.

"Add a macOS binary to what gets built when I push a version tag" matches best the owner's own
earlier ask ("Release automation. I want: push a tag v*, GitHub Actions builds…"), and the
request builds on what answered that ask: the workflow file the assistant wrote next, which
shares fewer of the request's words than the ask does and, beside short statements of the same
evening ("Tagged v0.3.0, release has both files."), can rank below the places a request keeps for
standing rules. In a working chat the owner asks and another speaker answers with the work, so
when a request's best hits hold the owner's own turns, the reply to each ranks right after it,
labelled ``replies_to``. The reply is the next memory said by another speaker whose context (what
was said just before it, ``Memory.context``) is the ask's message, among the owner's next
``_LOOK_AHEAD`` memories, each read by its key (however many the owner holds): one statement, for
requests (memory.search.standing.is_request) of one owner only. A question about what happened ranks
as before.
"""

from __future__ import annotations

import uuid

from helixsite.db.replicas import reader
from memory.search.expand import BY_KEY
from memory.search.params import SearchRequest
from memory.search.scope import Scope
from memory.search.score import Hit
from memory.search.standing import is_request

# The request's best hits whose replies are looked for, and how far after an ask its reply may be:
# an owner's message and the statements taken from it come first, then the reply.
ASKS = 3
_LOOK_AHEAD = 16
# The reply's context is the ask's message as ingestion cut it (memory.ingest.preceding): both are
# compared on their first characters, enough to tell two messages apart.
_COMPARED_CHARS = 200


def replies_to(scope: Scope, request: SearchRequest, hits: list[Hit]) -> dict[uuid.UUID, uuid.UUID]:
    """Each reply (by id) to one of the request's ``ASKS`` best hits that is the owner's own turn,
    with the ask it answers; none for a search that is no request or not one owner's."""
    if scope.user_id is None or not is_request(request.query):
        return {}
    best = sorted(hits, key=lambda h: -h.score)[:ASKS]
    asks = [h.memory.id for h in best if _owners_turn(h)]
    if not asks:
        return {}
    where, params = scope.sql(request.window, alias="n")
    statement = f"""
        WITH asks AS (
            SELECT a.id, a.user_id, left(btrim(r.message, E' \\t\\r\\n'), %(chars)s) AS said,
                LEAST(a.created_at, (
                    SELECT min(part.created_at) FROM memory_edge e JOIN memory_memory part ON part.id = e.source_id
                    WHERE e.target_id = a.id AND e.edge_type = 'PART_OF' AND e.expired_at IS NULL
                        AND part.run_id = a.run_id
                )) AS created_at
            FROM memory_memory a JOIN memory_ingestrun r ON r.id = a.run_id
            WHERE a.id = ANY(%(asks)s::uuid[])
        )
        SELECT reply.id, asks.id FROM asks CROSS JOIN LATERAL (
            SELECT n.id FROM (
                SELECT later.id, later.created_at FROM memory_memory later
                WHERE later.user_id = asks.user_id AND later.created_at > asks.created_at
                ORDER BY later.created_at LIMIT %(ahead)s
            ) next CROSS JOIN LATERAL (
                SELECT n.id FROM memory_memory n
                WHERE n.id = next.id AND {where}
                    AND n.facets ->> 'speaker' IS NOT NULL AND left(n.context, %(chars)s) = asks.said
                {BY_KEY}
            ) n
            ORDER BY next.created_at LIMIT 1
        ) reply"""
    with reader().cursor() as cursor:
        cursor.execute(statement, {**params, "asks": asks, "ahead": _LOOK_AHEAD, "chars": _COMPARED_CHARS})
        rows = cursor.fetchall()
    replies: dict[uuid.UUID, uuid.UUID] = {}
    for reply, ask in rows:
        replies.setdefault(reply, ask)
    return replies


def _owners_turn(hit: Hit) -> bool:
    """Said by the owner (no other speaker named) and no standing rule: a rule's reply is an
    acknowledgement, not work."""
    facets = hit.memory.facets
    return not facets.get("speaker") and not facets.get("standing")

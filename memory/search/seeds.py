"""Stage 1: seeds. Vector nearest neighbours (HNSW, iterative scan) and BM25 candidates
(``memory.search.bm25``) from the full-text index, both inside the same filter: live memories the
actor can see, of the owner for a personal search, in the event-time window.

BM25's document frequencies, document count and average length are those of the memories the
actor can see (memory.search.corpus keeps them as memories change), so scores reveal nothing
about other workspaces.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.conf import settings

from helixsite.db.replicas import reader
from memory.search.bm25 import Bm25, bm25_rank
from memory.search.corpus import MEMORIES
from memory.search.params import SearchRequest
from memory.search.scope import Scope


def vector_seeds(scope: Scope, request: SearchRequest, vector) -> dict[uuid.UUID, float]:
    where, params = scope.sql(request.window)
    return nearest("memory_memory m", where, params, vector, owned=scope.narrow)


def nearest(table: str, where: str, params: dict[str, Any], vector, *, owned: bool) -> dict[uuid.UUID, float]:
    """The ``HELIX_SEARCH_VECTOR_K`` rows of ``table`` ("name alias") matching ``where`` nearest to
    ``vector``, with their cosines, never fewer when that many match.

    One owner's rows (``owned``) are usually few against the whole table: up to
    ``HELIX_SEARCH_EXACT_ROWS`` of them, an exact scan is faster than walking the HNSW graph for
    enough of theirs, and exact; it also tells how many there are. Past that (and for a whole
    workspace) the HNSW index answers, its iterative scan stepping past the rows the filter
    leaves out. When a very selective filter makes it give up before ``k`` (pgvector stops at
    ``hnsw.max_scan_tuples``), the rows are ranked exactly after all."""
    alias = table.split()[1]
    values = {**params, "vec": vector_text(vector), "k": settings.HELIX_SEARCH_VECTOR_K}
    exact = f"""
        WITH owned AS MATERIALIZED (SELECT {alias}.id, {alias}.embedding FROM {table} WHERE {where} {{cap}})
        SELECT id, 1 - (embedding <=> %(vec)s::vector), count(*) OVER () FROM owned
        ORDER BY embedding <=> %(vec)s::vector LIMIT %(k)s"""
    with reader().cursor() as cursor:
        if owned:
            few = settings.HELIX_SEARCH_EXACT_ROWS
            cursor.execute(exact.format(cap="LIMIT %(few)s"), {**values, "few": few + 1})
            rows = cursor.fetchall()
            if not rows or rows[0][2] <= few:
                return {memory_id: float(cosine) for memory_id, cosine, _ in rows}
        cursor.execute(
            f"""SELECT {alias}.id, 1 - ({alias}.embedding <=> %(vec)s::vector) FROM {table}
                WHERE {where} ORDER BY {alias}.embedding <=> %(vec)s::vector LIMIT %(k)s""",
            values,
        )
        found = {memory_id: float(cosine) for memory_id, cosine in cursor.fetchall()}
        if len(found) < values["k"]:
            cursor.execute(exact.format(cap=""), values)
            found = {memory_id: float(cosine) for memory_id, cosine, _ in cursor.fetchall()}
    return found


def bm25_seeds(scope: Scope, request: SearchRequest) -> Bm25:
    """BM25 over a memory's own words and, at ``HELIX_SEARCH_CONTEXT_WEIGHT``, the words said just
    before it (``memory.search.bm25``), inside the seeds' filter."""
    where, params = scope.sql(request.window)
    text = matched_text(request.matched)
    return bm25_rank(MEMORIES, readable=scope.readable, where=where, params=params, text=text, owned=scope.narrow)


# "What does the user like?": an agent's question names the memory's owner as "the user", and a
# memory says "I". Matched as a word, it would find only memories that talk about other users.
_THE_USER = re.compile(r"\bthe\s+user(?:'s|s')?(?=\W|$)", re.IGNORECASE)


def matched_text(query: str) -> str:
    """The query as BM25 matches it: less "the user" (the owner, whom every memory is about)."""
    return _THE_USER.sub(" ", query)


def ranks(scores: dict[uuid.UUID, float]) -> dict[uuid.UUID, int]:
    return {memory_id: rank for rank, memory_id in enumerate(sorted(scores, key=lambda i: -scores[i]), start=1)}


def rare_tokens(query: str) -> list[str]:
    """Exact tokens a user expects to find verbatim: ids, paths, error codes, versions."""
    pattern = r"[\w.\-]*/[\w./\-]+|\b[0-9a-fA-F]{8}-[0-9a-fA-F\-]{27}\b|\b[A-Za-z]*\d[\w.\-]*|\b[A-Z]{2,}[\w\-]*"
    return [token for token in re.findall(pattern, query) if len(token) >= 3]


def vector_text(vector) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def rrf(rankings: list[dict[uuid.UUID, int]], k: int) -> dict[uuid.UUID, float]:
    fused: dict[uuid.UUID, float] = {}
    for ranking in rankings:
        for memory_id, rank in ranking.items():
            fused[memory_id] = fused.get(memory_id, 0.0) + 1.0 / (k + rank)
    return fused

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
from collections import OrderedDict
from functools import lru_cache
from typing import Any

import numpy as np
from django.conf import settings

from helixsite.db.replicas import prepared_reader, reader
from memory.search.bm25 import Bm25, bm25_rank, bm25_rank_gathered
from memory.search.corpus import MEMORIES
from memory.search.params import SearchRequest
from memory.search.scope import Scope
from memory.vector_indexes import owner_indexed


def vector_seeds(scope: Scope, request: SearchRequest, vector) -> dict[uuid.UUID, float]:
    where, params = scope.sql(request.window)
    return nearest(
        "memory_memory m",
        where,
        params,
        vector,
        gathered=gathers(scope, MEMORIES.table),
        owner=scope.user_id,
        prepared=scope.steady(request.window),
    )


# What a reader sees of one owner, found to hold more rows than HELIX_SEARCH_EXACT_ROWS: its next
# searches read through the indexes at once. Only a choice of way: a wrong guess costs time, never
# a result. The newest few thousand are kept.
_LARGE: OrderedDict[tuple, None] = OrderedDict()
_LARGE_KEPT = 4096


def _size_key(scope: Scope, table: str) -> tuple:
    filtered = scope.filters.key if scope.filters is not None else None
    return (table, None if scope.readable is None else tuple(scope.readable), scope.user_id, scope.category, filtered)


def gathers(scope: Scope, table: str) -> tuple | None:
    """Few rows to read (one owner's, a small category's): gather them first and rank them exactly.
    The key under which a gathering that finds them many remembers it; None when they are not few."""
    key = _size_key(scope, table)
    narrow = scope.narrow if table == MEMORIES.table else scope.user_id is not None  # a chunk has no category
    if not narrow or key in _LARGE:
        return None
    if scope.user_id is None or scope.category_few or scope.filters is not None:
        return key
    # An owner with an index of their own holds many rows (memory.vector_indexes): not gathered.
    return None if owner_indexed(table, scope.user_id) else key


def _found_large(key: tuple) -> None:
    _LARGE[key] = None
    while len(_LARGE) > _LARGE_KEPT:
        _LARGE.popitem(last=False)


# An owner's own HNSW index (memory.vector_indexes) is asked for this many times the rows kept:
# its walk covers only the owner's rows, so it stops sooner than the whole table's iterative scan
# does for them, and finds fewer of the true nearest (recall@10 against an exact ranking 0.78
# against 0.82 on 20 owners of 10,000); twice as many, the nearest kept, find as many (0.82).
OWN_INDEX_WIDEN = 2


def nearest(
    table: str,
    where: str,
    params: dict[str, Any],
    vector,
    *,
    gathered: tuple | None,
    owner: str | None = None,
    prepared: bool = False,
) -> dict[uuid.UUID, float]:
    """The ``HELIX_SEARCH_VECTOR_K`` rows of ``table`` ("name alias") matching ``where`` nearest to
    ``vector``, with their cosines, never fewer when that many match.

    A filter that leaves few rows (``gathered``: one owner's, a small category's) is usually few
    against the whole table: up to ``HELIX_SEARCH_EXACT_ROWS`` of them, an exact scan is faster than
    walking the HNSW graph for enough of them, and exact; it also tells how many there are (past
    that, remembered under ``gathered``). Otherwise the HNSW index answers, its iterative scan
    stepping past the rows the filter leaves out. When a very selective filter makes it give up
    before ``k`` (pgvector stops at ``hnsw.max_scan_tuples``), the rows are ranked exactly after all.
    ``owner``: the owner the filter keeps to, whose own index the HNSW statement may walk.
    ``prepared``: the filter's plan does not depend on its values (``Scope.steady``), so the
    gathering is prepared on the server."""
    name, alias = table.split()
    values = {**params, "vec": vector_text(vector), "k": settings.HELIX_SEARCH_VECTOR_K}
    # Each gathered row keeps its distance, not its vector: the rows are held twice (gathered,
    # then counted), and 1.5 KB a row copied twice was half the statement (0.76 → 0.41 ms).
    exact = f"""
        WITH owned AS MATERIALIZED (
            SELECT {alias}.id, {alias}.embedding <=> %(vec)s::vector AS distance FROM {table} WHERE {where} {{cap}}
        )
        SELECT id, 1 - distance, count(*) OVER () FROM owned ORDER BY distance LIMIT %(k)s"""
    if gathered is not None:
        few = settings.HELIX_SEARCH_EXACT_ROWS
        with prepared_reader(prepared) as cursor:
            cursor.execute(exact.format(cap="LIMIT %(few)s"), {**values, "few": few + 1})
            rows = cursor.fetchall()
        if not rows or rows[0][2] <= few:
            return {memory_id: float(cosine) for memory_id, cosine, _ in rows}
        _found_large(gathered)
    with reader().cursor() as cursor:
        widen = OWN_INDEX_WIDEN if owner is not None and owner_indexed(name, owner) else 1
        cursor.execute(
            f"""SELECT {alias}.id, 1 - ({alias}.embedding <=> %(vec)s::vector) FROM {table}
                WHERE {where} ORDER BY {alias}.embedding <=> %(vec)s::vector LIMIT %(fetch)s""",
            {**values, "fetch": values["k"] * widen},
        )
        rows = sorted(((memory_id, float(cosine)) for memory_id, cosine in cursor.fetchall()), key=lambda r: -r[1])
        found = dict(rows[: values["k"]])
        if len(found) < values["k"]:
            cursor.execute(exact.format(cap=""), values)
            found = {memory_id: float(cosine) for memory_id, cosine, _ in cursor.fetchall()}
    return found


def bm25_seeds(scope: Scope, request: SearchRequest) -> Bm25:
    """BM25 over a memory's own words and, at ``HELIX_SEARCH_CONTEXT_WEIGHT``, the words said just
    before it (``memory.search.bm25``), inside the seeds' filter. Few rows (one owner's, a small
    category's) are gathered first; when they turn out many, through the full-text index."""
    where, params = scope.sql(request.window)
    text = matched_text(request.matched)
    key = gathers(scope, MEMORIES.table)
    if key is not None:
        gathered = bm25_rank_gathered(
            MEMORIES,
            readable=scope.readable,
            where=where,
            params=params,
            text=text,
            up_to=settings.HELIX_SEARCH_EXACT_ROWS,
            prepared=scope.steady(request.window),
        )
        if gathered is not None:
            return gathered
        _found_large(key)
    return bm25_rank(MEMORIES, readable=scope.readable, where=where, params=params, text=text, owned=False)


# "What does the user like?": an agent's question names the memory's owner as "the user", and a
# memory says "I". Matched as a word, it would find only memories that talk about other users.
_THE_USER = re.compile(r"\bthe\s+user(?:'s|s')?(?=\W|$)", re.IGNORECASE)


def matched_text(query: str) -> str:
    """The query as BM25 matches it: less "the user" (the owner, whom every memory is about)."""
    return _THE_USER.sub(" ", query)


def ranks(scores: dict[uuid.UUID, float]) -> dict[uuid.UUID, int]:
    """1 for the best; equal scores by id, whatever order the database returned them in."""
    return {memory_id: rank for rank, memory_id in enumerate(sorted(scores, key=lambda i: (-scores[i], i)), start=1)}


def rare_tokens(query: str) -> list[str]:
    """Exact tokens a user expects to find verbatim: ids, paths, error codes, versions."""
    pattern = r"[\w.\-]*/[\w./\-]+|\b[0-9a-fA-F]{8}-[0-9a-fA-F\-]{27}\b|\b[A-Za-z]*\d[\w.\-]*|\b[A-Z]{2,}[\w\-]*"
    return [token for token in re.findall(pattern, query) if len(token) >= 3]


def vector_text(vector) -> str:
    """A vector as pgvector reads it, seven significant digits a value. A search sends its query's
    vector in three to five statements: written once (a 384-value vector took 0.1 ms each time)."""
    array = np.asarray(vector)
    return _vector_text(array.tobytes(), array.dtype.str)


@lru_cache(maxsize=16)
def _vector_text(raw: bytes, dtype: str) -> str:
    return "[" + ",".join(map("{:.7g}".format, np.frombuffer(raw, dtype=dtype).tolist())) + "]"


def rrf(rankings: list[dict[uuid.UUID, int]], k: int) -> dict[uuid.UUID, float]:
    fused: dict[uuid.UUID, float] = {}
    for ranking in rankings:
        for memory_id, rank in ranking.items():
            fused[memory_id] = fused.get(memory_id, 0.0) + 1.0 / (k + rank)
    return fused

"""Chunks in recall: ``search_memory`` (and build_context, answer_question) with
``include_chunks``.

The chunks are recalled as memories are, in the same scope: vector nearest neighbours (HNSW)
and BM25 (k1, b and the normalization of the memory search) over the current chunks of
documents not forgotten, in the workspaces the reader may see (of the owner, for a personal
search; created in the window, when one is given). BM25's statistics are counted over the
chunks the reader may see. A chunk's semantic score blends its cosine and its BM25 as a
memory's does, and its score weighs semantic, freshness and a middling importance with the
memory search's own weights, so one ranked list holds both. Memories extracted from a chunk
carry its citation.
"""

from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from helixsite.db.replicas import reader
from memory.documents.selectors import citations_for_memories
from memory.search.bm25 import NOTHING, Bm25, bm25_rank
from memory.search.corpus import CHUNKS
from memory.search.params import SearchRequest
from memory.search.scope import Scope
from memory.search.seeds import gathers, matched_text, nearest, ranks, rrf, vector_text

CHUNK_IMPORTANCE = 0.5  # a chunk has no importance of its own: the middle of the scale


@dataclass(frozen=True)
class ChunkRow:
    id: uuid.UUID
    text: str
    heading: str
    position: int
    char_start: int
    char_end: int
    page: int | None
    version: int
    created_at: datetime
    user_id: str
    document_id: uuid.UUID
    title: str
    source_url: str
    metadata: dict
    cosine: float


def with_chunks(results: list[dict[str, Any]], *, scope: Scope, request: SearchRequest, vector) -> list[dict[str, Any]]:
    """``results`` (memories, ranked and projected) and the best chunks, in one ranked list of at
    most ``request.limit`` rows (then the memory search's flashbacks); memories extracted from a
    chunk carry its citation. Searches narrowed to what only memories have (a concept, tags, a
    category) recall no chunks."""
    cited = citations_for_memories([r["id"] for r in results])
    for result in results:
        if result["id"] in cited:
            result["citation"] = cited[result["id"]]
    if scope.concept or scope.tags or scope.category:
        return results
    chunks = chunk_results(scope=scope, request=request, vector=vector)
    flashbacks = [r for r in results if r["flashback"]]
    ranked = sorted([*(r for r in results if not r["flashback"]), *chunks], key=lambda r: -r["score"])
    top = ranked[: request.limit]
    exact = next((r for r in results if r.get("exact_match")), None)
    if exact is not None and exact not in top:
        top = [*top[: request.limit - 1], exact]
    return top + flashbacks


def chunk_results(*, scope: Scope, request: SearchRequest, vector) -> list[dict[str, Any]]:
    where, params = scope.chunks_sql(request.window)
    signals = settings.HELIX_SEARCH_SEEDS
    bm25 = _bm25(scope, request, where, params) if signals in ("hybrid", "bm25") else NOTHING
    cosines = (
        nearest(
            "documents_chunk c",
            where,
            params,
            vector,
            gathered=gathers(scope, "documents_chunk"),
            owner=scope.user_id,
            prepared=scope.steady(request.window),
        )
        if signals in ("hybrid", "vector")
        else {}
    )
    rows = _rows(list(set(cosines) | set(bm25.scores)), vector)
    vector_rank, bm25_rank = ranks(cosines), ranks(bm25.scores)
    fused = rrf([vector_rank, bm25_rank], settings.HELIX_SEARCH_RRF_K)
    top_rrf = max(fused.values(), default=0.0) or 1.0
    now = timezone.now()
    scored = []
    for chunk_id, row in rows.items():
        semantic = _semantic(chunk_id, row.cosine, bm25, fused, top_rrf)
        freshness = math.exp(
            -max((now - row.created_at).total_seconds() / 86400, 0.0) / settings.HELIX_SEARCH_FRESHNESS_DAYS
        )
        score = (
            settings.HELIX_SEARCH_SEMANTIC_WEIGHT * semantic
            + request.mode.freshness_weight * freshness
            + settings.HELIX_SEARCH_IMPORTANCE_WEIGHT * CHUNK_IMPORTANCE
        )
        if score >= request.mode.min_score:
            ranked = {"vector_rank": vector_rank.get(chunk_id), "bm25_rank": bm25_rank.get(chunk_id)}
            scored.append(_result(row, score, semantic, freshness, bm25.scores.get(chunk_id), ranked))
    scored.sort(key=lambda r: (-r["score"], r["id"]))  # equal scores by id: the same order after a reload
    return scored[: request.limit]


def _semantic(chunk_id: uuid.UUID, cosine: float, bm25: Bm25, fused: dict, top_rrf: float) -> float:
    """As a memory's semantic score is made (memory.search.score)."""
    if settings.HELIX_SEARCH_SEEDS == "bm25":
        return bm25.normalized(chunk_id, "max")
    if settings.HELIX_SEARCH_SEEDS == "vector":
        return max(cosine, 0.0)
    if settings.HELIX_SEARCH_FUSION == "rrf" and chunk_id in fused:
        return fused[chunk_id] / top_rrf
    w = settings.HELIX_SEARCH_BLEND_BM25_WEIGHT
    return (1 - w) * max(cosine, 0.0) + w * bm25.normalized(chunk_id, settings.HELIX_SEARCH_BM25_NORMALIZATION)


def _result(row: ChunkRow, score: float, semantic: float, freshness: float, bm25: float | None, ranked: dict) -> dict:
    return {
        "id": str(row.id),
        "kind": "chunk",
        "content": row.text,
        "memory_type": "chunk",
        "user_id": row.user_id,
        "score": round(score, 4),
        "event_date": row.created_at.isoformat(),
        "created_at": row.created_at.isoformat(),
        "expires_at": None,
        "metadata": row.metadata,
        "signals": {
            "cosine": round(row.cosine, 4),
            "bm25": None if bm25 is None else round(bm25, 4),
            "bm25_rank": ranked["bm25_rank"],
            "vector_rank": ranked["vector_rank"],
            "rrf_rank": None,
            "semantic": round(semantic, 4),
            "ppr": None,
            "freshness": round(freshness, 4),
            "importance": CHUNK_IMPORTANCE,
            "in_named_time": False,
            "said_by_named": False,
            "only_asks": False,
            "attribute_match": False,
        },
        "origin": "seed",
        "superseded": False,
        "flashback": False,
        "citation": {
            "document_id": str(row.document_id),
            "title": row.title,
            "chunk_index": row.position,
            "char_start": row.char_start,
            "char_end": row.char_end,
            "source_url": row.source_url,
            "heading": row.heading,
            "page": row.page,
            "version": row.version,
        },
    }


def _bm25(scope: Scope, request: SearchRequest, where: str, params: dict[str, Any]) -> Bm25:
    text = matched_text(request.query)
    return bm25_rank(CHUNKS, readable=scope.readable, where=where, params=params, text=text, owned=False)


def _rows(ids: list[uuid.UUID], vector) -> dict[uuid.UUID, ChunkRow]:
    if not ids:
        return {}
    with reader().cursor() as cursor:
        cursor.execute(
            """SELECT c.id, c.text, c.heading, c.position, c.char_start, c.char_end, c.page, c.version,
                      c.created_at, c.user_id, c.document_id, d.title, d.source_url, d.metadata,
                      1 - (c.embedding <=> %(vec)s::vector)
               FROM documents_chunk c JOIN documents_document d ON d.id = c.document_id
               WHERE c.id = ANY(%(ids)s::uuid[])""",
            {"ids": ids, "vec": vector_text(vector)},
        )
        rows = cursor.fetchall()
    return {row[0]: _row(row) for row in rows}


def _row(row: tuple) -> ChunkRow:
    chunk_id, text, heading, position, start, end, page, version, created, owner, document, title, url, meta, cosine = (
        row
    )
    return ChunkRow(
        chunk_id, text, heading, position, start, end, page, version, created, owner, document, title, url,
        metadata=_json(meta), cosine=float(cosine),
    )  # fmt: skip


def _json(value) -> dict:
    """jsonb arrives as text (Django's loader leaves its decoding to the field)."""
    return json.loads(value) if isinstance(value, str) else (value or {})

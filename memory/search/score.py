"""Stage 3: score every seed and reached memory.

semantic  cosine blended with the lexical evidence (normalized BM25, or RRF k=60)
ppr       personalized PageRank proximity to the seeds over the typed edges, scaling semantic
freshness exp(−age/30 days) on event time, weighted by the mode
importance the memory's own importance
named time a memory whose event time lies in a time the query names ("in May 2022") has its
           semantic score raised by HELIX_SEARCH_NAMED_TIME_WEIGHT
speaker    so has a line of a transcript said by a person the query names (HELIX_SEARCH_SPEAKER_WEIGHT)
asking     a memory that only asks about the query's words has it lowered (memory.search.asking)
A direct hit's semantic score is a floor: the graph and freshness can promote it, never erase it.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.utils import timezone

from memory.ingest.english.topics import topic_words
from memory.search.asking import only_asks
from memory.search.bm25 import Bm25
from memory.search.expand import Link, Reached
from memory.search.params import SearchRequest
from memory.search.rows import Recalled
from memory.search.seeds import ranks, rrf


@dataclass
class Hit:
    memory: Recalled
    origin: str  # seed | edge
    cosine: float = 0.0
    bm25: float | None = None
    bm25_rank: int | None = None
    vector_rank: int | None = None
    rrf_rank: int | None = None
    semantic: float = 0.0
    ppr: float | None = None  # None: graph proximity is off (HELIX_SEARCH_PPR_WEIGHT = 0)
    freshness: float = 0.0
    score: float = 0.0
    reached: Reached | None = None
    flags: dict = field(default_factory=dict)

    @property
    def event_time(self):
        return self.memory.valid_from or self.memory.created_at


def score(
    *,
    request: SearchRequest,
    memories: dict[uuid.UUID, Recalled],
    cosines: dict[uuid.UUID, float],
    vector_scores: dict[uuid.UUID, float],
    bm25: Bm25,
    reached: dict[uuid.UUID, Reached],
    links: list[Link],
) -> list[Hit]:
    bm25_scores = bm25.scores
    vector_rank, bm25_rank = ranks(vector_scores), ranks(bm25_scores)
    fused = rrf([vector_rank, bm25_rank], settings.HELIX_SEARCH_RRF_K)
    rrf_rank = ranks(fused)
    method = settings.HELIX_SEARCH_BM25_NORMALIZATION
    top_rrf = max(fused.values(), default=0.0) or 1.0
    w = settings.HELIX_SEARCH_BLEND_BM25_WEIGHT
    # Each read of a setting is a lookup through Django's lazy settings: read once, not once a hit.
    seeds, fusion = settings.HELIX_SEARCH_SEEDS, settings.HELIX_SEARCH_FUSION
    hits: dict[uuid.UUID, Hit] = {}
    for memory_id, memory in memories.items():
        cosine = cosines.get(memory_id, 0.0)
        hit = Hit(
            memory=memory,
            origin="edge" if memory_id in reached else "seed",
            cosine=cosine,
            bm25=bm25_scores.get(memory_id),
            bm25_rank=bm25_rank.get(memory_id),
            vector_rank=vector_rank.get(memory_id),
            rrf_rank=rrf_rank.get(memory_id),
            reached=reached.get(memory_id),
        )
        if seeds == "bm25":
            hit.semantic = bm25.normalized(memory_id, "max")
        elif seeds == "vector":
            hit.semantic = max(cosine, 0.0)
        elif fusion == "rrf" and memory_id in fused:
            hit.semantic = fused[memory_id] / top_rrf
        else:
            lexical = bm25.normalized(memory_id, method)
            hit.semantic = (1 - w) * max(cosine, 0.0) + w * lexical
        hits[memory_id] = hit
    _prefer(hits.values(), request)
    _discount_asking(hits.values(), request)
    weight = settings.HELIX_SEARCH_PPR_WEIGHT
    ppr = personalized_pagerank(hits, links) if weight > 0 else {}
    now = timezone.now()
    days = settings.HELIX_SEARCH_FRESHNESS_DAYS
    semantic_weight, importance_weight = settings.HELIX_SEARCH_SEMANTIC_WEIGHT, settings.HELIX_SEARCH_IMPORTANCE_WEIGHT
    for memory_id, hit in hits.items():
        hit.ppr = ppr.get(memory_id, 0.0) if weight > 0 else None
        age_days = max((now - hit.event_time).total_seconds() / 86400, 0.0)
        hit.freshness = math.exp(-age_days / days)
        # Graph proximity scales a memory's own relevance: it can promote a relevant hit,
        # never lift an unrelated neighbour above it.
        hit.score = (
            semantic_weight * hit.semantic * (1 + weight * (hit.ppr or 0.0))
            + request.mode.freshness_weight * hit.freshness
            + importance_weight * hit.memory.importance
        )
    # Equal scores (the atoms of one source) go by id, not by the order the database returned them in.
    return sorted(hits.values(), key=lambda h: (-h.score, h.memory.id))


def _prefer(hits, request: SearchRequest) -> None:
    """Raise the semantic score of a memory dated in a time the query names, and of a line said
    by a person the query names ("What does Melanie do to relax?": Melanie's own words)."""
    named, named_weight = request.named, settings.HELIX_SEARCH_NAMED_TIME_WEIGHT
    speaker_weight = settings.HELIX_SEARCH_SPEAKER_WEIGHT
    words = set(re.findall(r"\w+", request.query.lower())) if speaker_weight > 0 else set()
    for hit in hits:
        if named is not None and named_weight > 0 and named.contains(hit.event_time):
            hit.semantic *= 1 + named_weight
            hit.flags["in_named_time"] = True
        speaker = (hit.memory.facets or {}).get("speaker") if words else None
        if speaker and _first_name(speaker) in words:
            hit.semantic *= 1 + speaker_weight
            hit.flags["said_by_named"] = True


def _discount_asking(hits, request: SearchRequest) -> None:
    """Lower the semantic score of a memory that only asks about the query's words, among the hits
    ranked high enough by it to be shown (``limit`` × 3): lowering one ranked below them changes
    nothing shown, and each is read."""
    weight = settings.HELIX_SEARCH_ASKING_WEIGHT
    topics = topic_words(request.matched) if weight > 0 else set()
    if not topics:
        return
    for hit in sorted(hits, key=lambda h: (-h.semantic, h.memory.id))[: request.limit * 3]:
        if only_asks(hit.memory.content, topics):
            hit.semantic *= 1 - weight
            hit.flags["only_asks"] = True


def _first_name(speaker: str) -> str:
    names = [word for word in speaker.lower().split() if word not in ("dr.", "mr.", "mrs.", "ms.")]
    return names[0] if names else ""


def personalized_pagerank(
    hits: dict[uuid.UUID, Hit], links: list[Link], *, damping: float = 0.85
) -> dict[uuid.UUID, float]:
    """Proximity to the seeds over the edges (both directions), normalized to a maximum of 1."""
    ids = list(hits)
    index = {memory_id: i for i, memory_id in enumerate(ids)}
    restart = np.array([hits[i].semantic if hits[i].origin == "seed" else 0.0 for i in ids], dtype=np.float64)
    if not links or restart.sum() <= 0:
        return {}
    restart /= restart.sum()
    matrix = np.zeros((len(ids), len(ids)))
    for link in links:
        if link.source in index and link.target in index:
            a, b = index[link.source], index[link.target]
            matrix[a, b] += link.confidence
            matrix[b, a] += link.confidence
    out = matrix.sum(axis=1, keepdims=True)
    transition = np.divide(matrix, out, out=np.zeros_like(matrix), where=out > 0)
    rank = restart.copy()
    for _ in range(30):
        rank = (1 - damping) * restart + damping * transition.T @ rank
    through_edges = np.clip(rank - (1 - damping) * restart, 0.0, None)
    top = through_edges.max()
    if top <= 0:
        return {}
    return {memory_id: float(through_edges[index[memory_id]] / top) for memory_id in ids}

"""Reads in the memory domain."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from pgvector.django import CosineDistance

from helixsite.errors import NotFound
from memory.models import Edge, EmbeddingSpace, Memory, MemoryHistory
from memory.providers import embed_query
from memory.search.expand import Reached, expand, incoming, links_among
from memory.search.params import search_request
from memory.search.project import as_result, project
from memory.search.reinforce import buffer as reinforcement
from memory.search.score import Hit, score
from memory.search.seeds import Scope, bm25_seeds, rare_tokens, vector_seeds
from rbac.policy import is_global_admin, readable_workspace_ids


def embedding_space_get() -> EmbeddingSpace | None:
    return EmbeddingSpace.objects.filter(pk=1).first()


def embedding_space_mismatch(space: EmbeddingSpace) -> str | None:
    """Describe how the configuration differs from the installed embedding space, if it does."""
    if space.dimension != settings.HELIX_EMBEDDING_DIM:
        return (
            f"HELIX_EMBEDDING_DIM is {settings.HELIX_EMBEDDING_DIM} but this installation stores "
            f"{space.dimension}-d vectors ({space.provider}:{space.model}); set HELIX_EMBEDDING_DIM={space.dimension} "
            "and the matching model, or start a new installation with another HELIX_DATA_DIR or DATABASE_URL."
        )
    if (space.provider, space.model) != (settings.HELIX_EMBEDDINGS, settings.HELIX_EMBEDDING_MODEL):
        return (
            f"the embedding model is {settings.HELIX_EMBEDDINGS}:{settings.HELIX_EMBEDDING_MODEL} but the stored "
            f"vectors come from {space.provider}:{space.model}; vectors of different models are not comparable. "
            "Configure the installed model again."
        )
    return None


def memory_get_for_actor(*, actor, memory_id) -> Memory:  # noqa: ANN001
    """The access gate for one memory: not visible and not existing are the same 404."""
    try:
        pk = uuid.UUID(str(memory_id))
    except ValueError:
        raise NotFound("Memory not found.", field="memory_id") from None
    memory = Memory.objects.live().visible_to(actor).filter(pk=pk).first()
    if memory is None:
        raise NotFound("Memory not found.", field="memory_id")
    return memory


def memory_list(
    *,
    actor,  # noqa: ANN001
    user_id: str | None = None,
    memory_type: str | None = None,
    include_superseded: bool = False,
    limit: int = 50,
    offset: int = 0,
) -> list[Memory]:
    """Newest first, only what the actor may see."""
    memories = Memory.objects.live().visible_to(actor)
    if not include_superseded:
        memories = memories.filter(valid_to__isnull=True)
    if user_id:
        memories = memories.filter(user_id=user_id)
    if memory_type:
        memories = memories.filter(memory_type=memory_type)
    return list(memories.defer("embedding").order_by("-created_at", "-id")[offset : offset + limit])


@dataclass
class MemoryDetail:
    memory: Memory
    edges_out: list[Edge]
    edges_in: list[Edge]
    history: list[MemoryHistory]


def memory_detail(*, actor, memory_id) -> MemoryDetail:  # noqa: ANN001
    """A memory with its live edges (only to memories the actor may see) and its history."""
    memory = memory_get_for_actor(actor=actor, memory_id=memory_id)
    visible = Memory.objects.live().visible_to(actor).values("id")
    edges = Edge.objects.live().select_related("source", "target").defer("source__embedding", "target__embedding")
    return MemoryDetail(
        memory=memory,
        edges_out=list(edges.filter(source=memory, target__in=visible)),
        edges_in=list(edges.filter(target=memory, source__in=visible)),
        history=list(memory.history.all()),
    )


def memory_search(*, actor, **params) -> dict:  # noqa: ANN001, ANN003 - the parameters of search_request
    """Hybrid recall: seeds (vector + BM25) → graph expansion → scoring → projection.

    Only live memories the actor can see are seeds, are walked through, or come back.
    """
    request = search_request(**params)
    scope = Scope(readable=None if is_global_admin(actor) else readable_workspace_ids(actor),
                  user_id=request.user_id if request.scope == "personal" else None)  # fmt: skip
    vector = embed_query(request.query)
    vector_scores = vector_seeds(scope, request, vector)
    bm25_scores = bm25_seeds(scope, request)
    seed_ids = sorted(
        set(vector_scores) | set(bm25_scores), key=lambda i: -(vector_scores.get(i, 0) + bm25_scores.get(i, 0))
    )
    reached = expand(scope, seed_ids[: settings.HELIX_SEARCH_EXPAND_FROM], depth=request.graph_depth,
                     limit=settings.HELIX_SEARCH_EXPAND_MAX)  # fmt: skip
    ids = list(dict.fromkeys([*seed_ids, *reached]))
    memories = Memory.objects.defer("embedding", "search_vector").in_bulk(ids)
    hits = score(request=request, memories=memories, cosines=_cosines(ids, vector), vector_scores=vector_scores,
                 bm25_scores=bm25_scores, reached=reached, links=links_among(ids))  # fmt: skip
    top_ids = [h.memory.id for h in hits[: request.limit * 3]]
    superseded_by = incoming([h.memory.id for h in hits if h.memory.valid_to], "SUPERSEDES", scope)
    hits += _successors_missing(hits, superseded_by, vector)
    results = project(
        request=request, hits=hits, superseded_by=superseded_by, families=_families(top_ids),
        pinned=_exact_pin(request.query, bm25_scores),
    )  # fmt: skip
    reinforcement.add([h.memory.id for h in results])
    return {
        "ok": True,
        "query": request.query,
        "mode": request.mode.name,
        "scope": request.scope,
        "results": [as_result(h) for h in results],
        "count": len(results),
    }


def _successors_missing(hits: list[Hit], superseded_by: dict, vector) -> list[Hit]:  # noqa: ANN001
    """Current versions of superseded hits that the seeds and the walk did not reach."""
    have = {h.memory.id for h in hits}
    missing = {s: old for old, successors in superseded_by.items() for s in successors if s not in have}
    if not missing:
        return []
    cosines = _cosines(list(missing), vector)
    found = Memory.objects.defer("embedding", "search_vector").in_bulk(list(missing))
    return [
        Hit(memory=memory, origin="edge", cosine=cosines.get(memory_id, 0.0),
            reached=Reached(depth=1, edge_type="SUPERSEDES", via=missing[memory_id]))
        for memory_id, memory in found.items()
    ]  # fmt: skip


def _cosines(ids: list, vector) -> dict:  # noqa: ANN001
    if not ids:
        return {}
    rows = (
        Memory.objects.filter(id__in=ids)
        .annotate(distance=CosineDistance("embedding", vector))
        .values_list("id", "distance")
    )
    return {memory_id: 1 - float(distance) for memory_id, distance in rows}


def _families(ids: list) -> dict:
    """Atom → its raw source, for memories among ``ids`` linked by PART_OF."""
    edges = Edge.objects.live().filter(edge_type="PART_OF").filter(Q(source__in=ids) | Q(target__in=ids))
    return {source: target for source, target in edges.values_list("source_id", "target_id")}


def _exact_pin(query: str, bm25_scores: dict):  # noqa: ANN202 - a memory id or None
    """A query with a rare exact token keeps its rank-1 BM25 hit in the top k."""
    if not bm25_scores or not rare_tokens(query):
        return None
    return max(bm25_scores, key=bm25_scores.get)

"""Reads in the memory domain."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings

from helixsite.errors import NotFound
from memory.models import Edge, EmbeddingSpace, Memory, MemoryHistory


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

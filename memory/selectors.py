"""Reads in the memory domain."""

from __future__ import annotations

from django.conf import settings

from memory.models import EmbeddingSpace


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

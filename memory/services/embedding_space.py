"""The embedding space the stored vectors live in: recorded on first start, checked on every start."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from memory.models import EmbeddingSpace
from memory.selectors import embedding_space_mismatch


def embedding_space_ensure() -> EmbeddingSpace:
    """Record the configured embedding space on first start; refuse a different one later."""
    with transaction.atomic():
        space, _ = EmbeddingSpace.objects.select_for_update().get_or_create(
            pk=1,
            defaults={
                "provider": settings.HELIX_EMBEDDINGS,
                "model": settings.HELIX_EMBEDDING_MODEL,
                "dimension": settings.HELIX_EMBEDDING_DIM,
            },
        )
    problem = embedding_space_mismatch(space)
    if problem:
        raise ImproperlyConfigured(problem)
    return space

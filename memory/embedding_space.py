"""The embedding space the stored vectors live in: recorded on first start, checked on every start
and before every write and search, whether this process embeds in it.

A module of its own, below the search and the write path, so that every writer of a vector may
ask (the documents included) without importing either."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from helixsite.db.replicas import prepared_reader
from helixsite.errors import ApplicationError
from memory.models import EmbeddingSpace, ReembedJob


def embedding_space_get() -> EmbeddingSpace | None:
    return EmbeddingSpace.objects.filter(pk=1).first()


def embedding_space_mismatch(space: EmbeddingSpace) -> str | None:
    """Describe how the configuration differs from the installed embedding space, if it does."""
    configured = (settings.HELIX_EMBEDDINGS, settings.HELIX_EMBEDDING_MODEL, settings.HELIX_EMBEDDING_DIM)
    if configured == (space.provider, space.model, space.dimension):
        return None
    switched = ReembedJob.objects.filter(status=ReembedJob.Status.DONE).first()
    if switched is not None and (switched.provider, switched.model, switched.dimension) == (
        space.provider,
        space.model,
        space.dimension,
    ):
        return _reembedded_message(switched)
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


def _reembedded_message(job: ReembedJob) -> str:
    restart = [
        f"HELIX_EMBEDDINGS={job.provider}",
        f"HELIX_EMBEDDING_MODEL={job.model}",
        f"HELIX_EMBEDDING_DIM={job.dimension}",
        *([f"HELIX_EMBEDDING_BASE_URL={job.base_url}"] if job.base_url else []),
    ]
    finished = f" on {job.finished_at:%Y-%m-%d %H:%M} UTC" if job.finished_at else ""
    return (
        f"manage.py reembed switched the stored vectors to {job.target}{finished}, but this process embeds with "
        f"{settings.HELIX_EMBEDDINGS}:{settings.HELIX_EMBEDDING_MODEL} ({settings.HELIX_EMBEDDING_DIM}-d): "
        f"restart the server with {' '.join(restart)}."
    )


def embedding_space_check() -> None:
    """Refuse to embed for the stored vectors with a model they are not in: once ``manage.py
    reembed`` has switched the installation, a process still configured with the old model would
    search with vectors not comparable with the stored ones and write such vectors, until it is
    restarted with the new configuration. Asked before every search and write, so the row is read
    without the ORM's query building; the rest only when it differs."""
    with prepared_reader() as cursor:
        cursor.execute(f"SELECT provider, model, dimension FROM {EmbeddingSpace._meta.db_table} WHERE id = 1")
        installed = cursor.fetchone()
    configured = (settings.HELIX_EMBEDDINGS, settings.HELIX_EMBEDDING_MODEL, settings.HELIX_EMBEDDING_DIM)
    if installed is None or tuple(installed) == configured:
        return
    space = embedding_space_get()
    problem = None if space is None else embedding_space_mismatch(space)
    if problem:
        raise ApplicationError(problem, code="embedding_space_mismatch", status=503)


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

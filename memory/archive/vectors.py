"""The vectors an import stores: the archive's own, or this installation's when it embeds again;
and the HNSW index of each table it loads vectors into, which a large load goes without and
builds once at the end (building it is far cheaper than inserting into it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, models

from memory.archive.files import ArchiveError
from memory.documents.models import Chunk
from memory.models import Memory
from memory.providers import ProviderError, get_embedder
from memory.vector_indexes import HNSW


def embed_into(rows: Iterable[Any], texts: list[str]) -> None:
    """This installation's vectors for ``texts``, set on ``rows`` (before any transaction: a
    provider that fails writes nothing)."""
    try:
        vectors = get_embedder().embed(texts, purpose="import")
    except ProviderError as exc:
        raise ArchiveError(
            f"The embedding provider failed ({exc}). The batches before this one are imported; run the import "
            "again once it answers, it continues from there.",
            code=exc.code,
        ) from None
    for row, vector in zip(rows, vectors, strict=True):
        row.embedding = vector


def vector_read(values: Any) -> list[float]:
    if not isinstance(values, list) or len(values) != settings.HELIX_EMBEDDING_DIM:
        count = len(values) if isinstance(values, list) else "no"
        raise ArchiveError(f"its vector has {count} values; this installation stores {settings.HELIX_EMBEDDING_DIM}")
    return values


@dataclass(frozen=True)
class VectorIndex:
    name: str
    table: str
    model: type[models.Model]

    def load_is_large(self, incoming: int) -> bool:
        """Whether a load of ``incoming`` rows is better done without the index (as import_jsonl decides)."""
        return (
            incoming >= settings.HELIX_IMPORT_REBUILD_MIN_ROWS and incoming >= self.model._default_manager.count() * 0.2
        )

    def exists(self) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [self.name])
            return cursor.fetchone() is not None

    def drop(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX IF EXISTS {self.name}")

    def build(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '512MB'")
            cursor.execute(f"CREATE INDEX IF NOT EXISTS {self.name} ON {self.table} {HNSW.format(column='embedding')}")
            cursor.execute("RESET maintenance_work_mem")


# The kinds whose rows carry a vector under an HNSW index, by kind.
VECTOR_INDEXES = {
    "memories": VectorIndex("memory_embedding_hnsw", "memory_memory", Memory),
    "chunks": VectorIndex("chunk_embedding_hnsw", "documents_chunk", Chunk),
}

"""The switch: one short transaction that puts the new vectors in place.

Writes wait (searches go on) while the rows still missing a next vector are embedded; then,
with the tables to itself for a moment, each old column is dropped and the next one renamed
into its place, and the installation's embedding space becomes the target. A writer that
embedded with the old model and was waiting on the lock finds the new space when it gets the
table, and is refused (``memory.selectors.embedding_space_check``) rather than writing a vector
of another model.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from django.utils import timezone

from helixsite.errors import ApplicationError
from memory.models import EmbeddingSpace, ReembedJob
from memory.providers import Embedder
from memory.reembed import schema
from memory.reembed.fill import Progress, fill_pass
from memory.reembed.jobs import job_save
from memory.reembed.schema import VectorTable
from memory.reembed.target import Target


def switch(
    *,
    job: ReembedJob,
    target: Target,
    tables: Sequence[VectorTable],
    embedder: Embedder,
    batch_size: int,
    progress: Progress,
) -> None:
    with schema.ddl():
        schema.lock(tables, "EXCLUSIVE")
        locked_at = time.perf_counter()
        while fill_pass(job=job, tables=tables, embedder=embedder, batch_size=batch_size, progress=progress):
            pass  # until a pass finds nothing: no one else writes now
        unembedded = [table.name for table in tables if schema.any_missing(table)]
        if unembedded:
            raise ApplicationError(
                f"Rows of {', '.join(unembedded)} could not be given a vector of the new model; nothing was switched.",
                code="reembed_incomplete",
                status=500,
            )
        schema.lock(tables, "ACCESS EXCLUSIVE")
        for table in tables:
            schema.swap(table)
        schema.stale_function_drop()
        EmbeddingSpace.objects.filter(pk=1).update(
            provider=target.provider, model=target.model, dimension=target.dimension
        )
        held_ms = (time.perf_counter() - locked_at) * 1000
        job_save(job, status=ReembedJob.Status.DONE, phase="", switch_ms=held_ms, finished_at=timezone.now())

"""Embedding what the next columns still miss, a batch per transaction: an interruption loses
at most the batch it was in, and the next run starts from the rows still missing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import transaction

from memory.models import ReembedJob
from memory.providers import Embedder
from memory.reembed import schema
from memory.reembed.jobs import job_save
from memory.reembed.schema import VectorTable
from memory.search.seeds import vector_text

Progress = Callable[[ReembedJob], None]


def fill_pass(
    *, job: ReembedJob, tables: Sequence[VectorTable], embedder: Embedder, batch_size: int, progress: Progress
) -> int:
    """Every row missing its next vector, table by table in id order; rows written behind the
    pass are left to the next one. Returns the rows embedded."""
    embedded = 0
    for table in tables:
        after = None
        while rows := schema.missing(table, after=after, limit=batch_size):
            vectors = embedder.embed([text for _, text in rows], purpose="reembed")
            with transaction.atomic():
                stored = schema.store(table, rows, [vector_text(vector) for vector in vectors])
                job_save(job, done=job.done + stored)
            embedded += stored
            after = rows[-1][0]
            progress(job)
    return embedded


def recount(job: ReembedJob, tables: Sequence[VectorTable], *, phase: str, progress: Progress) -> None:
    """Count again what there is to embed (rows are written and deleted while a run works)."""
    total = missing = 0
    for table in tables:
        rows, left = schema.counts(table)
        total, missing = total + rows, missing + left
    job_save(job, total=total, done=total - missing, phase=phase)
    progress(job)

"""The re-embed's conductor: every stored vector embedded again with another model while the
installation serves, then the switch to it in one short transaction (``manage.py reembed``),
through the stages beside it in ``memory.reembed``, which never import it (``make lint``)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import partial

from django.db import DatabaseError
from django.utils import timezone

from helixsite.errors import ApplicationError, Conflict, InvalidInput
from memory.embedding_space import embedding_space_get
from memory.models import EmbeddingSpace, ReembedJob
from memory.providers import Embedder, ProviderError
from memory.reembed import schema
from memory.reembed.fill import Progress, fill_pass, recount
from memory.reembed.jobs import RunLock, job_save, job_unfinished
from memory.reembed.schema import VectorTable
from memory.reembed.switch import switch
from memory.reembed.target import Target, target_embedder, target_probe

# Passes after the first while rows keep arriving faster than a batch per pass; whatever is
# still missing then is embedded inside the switch.
CATCH_UP_PASSES = 3


def _quiet(job: ReembedJob) -> None:
    return None


def reembed_run(
    *, target: Target, batch_size: int = 256, switch_now: bool = True, progress: Progress = _quiet
) -> ReembedJob:
    """Embed every memory, entity and document chunk with ``target`` into next columns, then
    switch (unless ``switch_now`` is false: the job then waits, ready, for a later run). Resumes
    an interrupted job to the same target; refuses while another run works or another target's
    job is unfinished. ``progress`` is called after every batch and change of phase."""
    if batch_size < 1:
        raise InvalidInput("--batch-size must be at least 1.", field="batch_size")
    space = _installed_space()
    with RunLock():
        tables = schema.tables_present()
        schema.not_null_finish(tables)  # a switch that committed just before its run was stopped
        embedder = target_embedder(target)
        target_probe(target, embedder)
        job = _job_for(target, space, tables)
        try:
            _embed_everything(job, target, tables, embedder, batch_size, progress)
            if not switch_now:
                job_save(job, phase="ready to switch")
                return job
            job_save(job, status=ReembedJob.Status.SWITCHING, phase="switching")
            progress(job)
            switch(job=job, target=target, tables=tables, embedder=embedder, batch_size=batch_size, progress=progress)
        except BaseException as exc:
            _stopped(job, exc)
            if isinstance(exc, ProviderError):
                raise ApplicationError(f"Stopped: {exc}", code=exc.code, status=503) from exc
            raise
        progress(job)
        schema.not_null_finish(tables)
    return job


def _installed_space() -> EmbeddingSpace:
    space = embedding_space_get()
    if space is None:
        raise InvalidInput(
            "This installation has not recorded its embedding model yet (the server records it when it first "
            "starts): there is nothing to re-embed."
        )
    return space


def _job_for(target: Target, space: EmbeddingSpace, tables: Sequence[VectorTable]) -> ReembedJob:
    """The unfinished job to the same target, resumed; or a new one."""
    job = job_unfinished()
    if job is None:
        if any(schema.next_dimension(table) is not None for table in tables):
            schema.drop(tables)  # next columns no job owns (its row was deleted): of another target, maybe
        job = ReembedJob.objects.create(
            provider=target.provider,
            model=target.model,
            dimension=target.dimension,
            base_url=target.base_url,
            source=str(space),
        )
    elif (job.provider, job.model, job.dimension) != (target.provider, target.model, target.dimension):
        raise Conflict(
            f"A re-embed to {job.target} is unfinished ({job.done:,} of {job.total:,} rows); run the command again "
            "with that target to resume it, or with --abort to give it up.",
            code="reembed_unfinished",
        )
    job_save(job, status=ReembedJob.Status.RUNNING, base_url=target.base_url, error="")
    return job


def _embed_everything(
    job: ReembedJob,
    target: Target,
    tables: Sequence[VectorTable],
    embedder: Embedder,
    batch_size: int,
    progress: Progress,
) -> None:
    """Passes until they keep up with the writes, the HNSW indexes, then one more pass for the
    rows written while the indexes were built (inserting those into a built index is cheap;
    inserting every row one by one would cost far more than building once)."""
    schema.prepare(tables, target.dimension)
    one_pass = partial(fill_pass, job=job, tables=tables, embedder=embedder, batch_size=batch_size, progress=progress)
    recount(job, tables, phase="embedding", progress=progress)
    one_pass()
    for _ in range(CATCH_UP_PASSES):
        recount(job, tables, phase="catching up", progress=progress)
        if one_pass() <= batch_size:
            break
    job_save(job, phase="building the vector index")
    progress(job)
    for table in tables:
        schema.next_index_build(table)
    recount(job, tables, phase="catching up", progress=progress)
    one_pass()


def _stopped(job: ReembedJob, exc: BaseException) -> None:
    """Say on the job why the run stopped; it stays unfinished, for the next run to resume."""
    reason = getattr(exc, "message", None) or str(exc) or exc.__class__.__name__
    with contextlib.suppress(DatabaseError):  # the database itself may be what stopped it
        job_save(job, status=ReembedJob.Status.RUNNING, error=reason[:2000])


def reembed_abort() -> ReembedJob | None:
    """Give up the unfinished job: drop the next columns; the stored vectors stay as they are.
    None when there was nothing to give up."""
    with RunLock():
        tables = schema.tables_present()
        schema.drop(tables)
        job = job_unfinished()
        if job is not None:
            job_save(job, status=ReembedJob.Status.ABORTED, phase="", finished_at=timezone.now())
    return job

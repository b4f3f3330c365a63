"""What the room shows of the embedding space and of re-embedding (``manage.py reembed``): where the
newest job stands, and the exact command that starts, resumes or gives one up.

A re-embed embeds every memory, entity name and document chunk again (minutes to hours) and holds
its lock for as long: it is a command an operator runs on the server, where it can be followed,
stopped and resumed, never a web request. The page shows it and says how."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from django.conf import settings

from helixsite.errors import Conflict
from memory.embedding_space import embedding_space_get, embedding_space_mismatch
from memory.models import EmbeddingSpace, ReembedJob
from memory.reembed.jobs import job_newest
from memory.reembed.target import Target, target_parse
from memory.selectors import ReembedState, reembed_status

COMMAND = ".venv/bin/python manage.py reembed"
WORKING = ("running", "switching")  # a run holds the lock: the page polls
WHAT_IT_MEANS = {
    "idle": "No re-embed has run on this installation.",
    "running": "A run is embedding now; searches and writes go on with the installed vectors meanwhile.",
    "switching": "A run is switching to the new vectors: writes wait for a moment.",
    "interrupted": "Unfinished, and no run is working on it: run the command below to resume where it stopped.",
    "ready": "Embedded and indexed (--no-switch); waiting for a run to catch up and switch.",
    "done": "Switched: the stored vectors are of the model it moved to.",
    "aborted": "Given up: the stored vectors stayed as they were.",
}


@dataclass(frozen=True)
class EmbeddingOverview:
    installed: EmbeddingSpace | None  # the model the stored vectors are of
    configured: str  # the model this process embeds with
    mismatch: str | None  # why this process refuses to embed, when it does
    state: ReembedState  # the newest job's status, as /healthz tells it
    meaning: str
    job: ReembedJob | None
    resume: str | None  # the command that resumes an unfinished job
    abort: str | None

    @property
    def working(self) -> bool:
        return self.state["status"] in WORKING


def embedding_overview() -> EmbeddingOverview:
    installed = embedding_space_get()
    state, job = reembed_status(), job_newest()
    unfinished = job is not None and state["status"] in ("interrupted", "ready")
    return EmbeddingOverview(
        installed=installed,
        configured=f"{settings.HELIX_EMBEDDINGS}:{settings.HELIX_EMBEDDING_MODEL} ({settings.HELIX_EMBEDDING_DIM}-d)",
        mismatch=embedding_space_mismatch(installed) if installed else None,
        state=state,
        meaning=WHAT_IT_MEANS.get(state["status"], ""),
        job=job,
        resume=_command(_target_of(job).command_options()) if unfinished and job else None,
        abort=_command(["--abort"]) if unfinished else None,
    )


def reembed_command(
    *, provider: str, model: str, dimension: int | None, base_url: str, no_switch: bool, overview: EmbeddingOverview
) -> str:
    """The command that starts a re-embed to the model named, checked as the command checks it;
    refused while a run works or another job is unfinished, as the command would be."""
    target = target_parse(provider=provider, model=model or None, dimension=dimension, base_url=base_url or None)
    job = overview.job
    if overview.working and job is not None:
        raise Conflict(
            f"A re-embed to {job.target} is running; wait for it to finish, or follow it here.",
            code="reembed_running",
        )
    named = (target.provider, target.model, target.dimension)
    if overview.resume and job is not None and (job.provider, job.model, job.dimension) != named:
        raise Conflict(
            f"A re-embed to {job.target} is unfinished ({job.done:,} of {job.total:,} rows): resume it or give it "
            "up first, with the commands above.",
            code="reembed_unfinished",
        )
    return _command(target.command_options() + (["--no-switch"] if no_switch else []))


def _target_of(job: ReembedJob) -> Target:
    return Target(provider=job.provider, model=job.model, dimension=job.dimension, base_url=job.base_url)


def _command(options: list[str]) -> str:
    return f"{COMMAND} {shlex.join(options)}"

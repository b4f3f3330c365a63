"""Reads in the memory domain."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db.models import BooleanField, Count, Max, Min, QuerySet
from django.db.models.expressions import RawSQL

from helixsite.errors import NotFound
from memory.models import Edge, Memory, MemoryHistory, ReembedJob
from memory.reembed.jobs import UNFINISHED, job_newest, lock_held
from memory.search.filters import MemoryFilter
from rbac.actors import Actor
from rbac.policy import may_change


class ReembedState(dict):
    """A re-embed's state: a JSON object in ``/healthz``, one line where it is shown as text."""

    def __str__(self) -> str:
        line = f"{self['status']}"
        if "target" in self:
            line += f" to {self['target']}"
        if self["status"] in ("running", "interrupted", "ready", "switching"):
            line += f": {self['done']:,} of {self['total']:,} rows embedded"
        if "phase" in self:
            line += f" ({self['phase']})"
        return line + (f"; {self['error']}" if "error" in self else "")


def reembed_status() -> ReembedState:
    """Where the newest re-embed stands (``/healthz``, ``manage.py reembed --status``): idle,
    running (with its phase and done of total rows), interrupted (unfinished, no run working on
    it), ready (embedded, waiting for a run to switch), switching, done or aborted."""
    job = job_newest()
    if job is None:
        return ReembedState(status="idle")
    status = job.status
    if job.status in UNFINISHED and not lock_held():
        status = "ready" if job.phase == "ready to switch" else "interrupted"
    state = ReembedState(status=status, target=job.target, source=job.source)
    if job.status == ReembedJob.Status.RUNNING and job.phase:
        state["phase"] = job.phase
    state.update(done=job.done, total=job.total, started_at=job.started_at.isoformat())
    if job.error and job.status in UNFINISHED:
        state["error"] = job.error
    if job.finished_at:
        state["finished_at"] = job.finished_at.isoformat()
    if job.switch_ms is not None:
        state["switch_ms"] = round(job.switch_ms, 1)
    return state


def memory_get_for_actor(*, actor: Actor, memory_id, forgotten: bool = False) -> Memory:
    """The access gate for one memory: not visible and not existing are the same 404.
    ``forgotten``: a forgotten (or expired) memory is found too, by those who may change it (its
    author with write access, a moderator of its workspace, an admin): a forgotten memory has left
    every read path, and a viewer reads it no more than they would have before."""
    try:
        pk = uuid.UUID(str(memory_id))
    except ValueError:
        raise NotFound("Memory not found.", field="memory_id") from None
    memories = Memory.objects.all() if forgotten else Memory.objects.live()
    memory = memories.visible_to(actor).filter(pk=pk).first()
    if memory is None or (
        memory.deleted_at is not None
        and not may_change(actor=actor, author_id=memory.author_id, visible_in=memory.visible_in)
    ):
        raise NotFound("Memory not found.", field="memory_id")
    return memory


def memory_list(
    *,
    actor: Actor,
    user_id: str | None = None,
    memory_type: str | None = None,
    include_superseded: bool = False,
    limit: int = 50,
    offset: int = 0,
    filters: MemoryFilter | None = None,
) -> list[Memory]:
    """Newest first, only what the actor may see (and ``filters`` matches: memory.search.filters)."""
    memories = _listed(actor, user_id, memory_type, include_superseded, filters)
    return list(memories.defer("embedding").order_by("-created_at", "-id")[offset : offset + limit])


def memory_count(
    *,
    actor: Actor,
    user_id: str | None = None,
    include_superseded: bool = False,
    filters: MemoryFilter | None = None,
) -> int:
    """How many memories ``memory_list`` pages through with the same arguments."""
    return _listed(actor, user_id, None, include_superseded, filters).count()


def _listed(
    actor: Actor,
    user_id: str | None,
    memory_type: str | None,
    include_superseded: bool,
    filters: MemoryFilter | None,
) -> QuerySet[Memory]:
    memories = Memory.objects.live().visible_to(actor)
    if not include_superseded:
        memories = memories.filter(valid_to__isnull=True)
    if user_id:
        memories = memories.filter(user_id=user_id)
    if memory_type:
        memories = memories.filter(memory_type=memory_type)
    if filters is not None:
        condition, params = filters.positional(Memory._meta.db_table)
        memories = memories.filter(RawSQL(condition, params, output_field=BooleanField()))
    return memories


@dataclass(frozen=True)
class MemoryEntity:
    """Someone or something memories are held under: an owner (``user``), an agent instance
    (``agent``), or a ``run_id`` / ``app_id`` metadata value (``run``, ``app``)."""

    kind: str
    name: str
    total: int
    first_at: datetime
    last_at: datetime


ENTITY_KEYS = {"user": "user_id", "agent": "agent_id", "run": "metadata__run_id", "app": "metadata__app_id"}


def memory_entities(*, actor: Actor, limit: int = 1000) -> list[MemoryEntity]:
    """The owners, agents, runs and apps of the current memories the actor may see, with how many
    each holds; at most ``limit`` of each kind, the largest first."""
    current = Memory.objects.live().visible_to(actor).filter(valid_to__isnull=True)
    found: list[MemoryEntity] = []
    for kind, key in ENTITY_KEYS.items():
        rows = (
            current.exclude(**{f"{key}__isnull": True})
            .exclude(**{key: ""})
            .values(key)
            .annotate(total=Count("id"), first_at=Min("created_at"), last_at=Max("updated_at"))
            .order_by("-total", key)[:limit]
        )
        found += [MemoryEntity(kind, str(r[key]), r["total"], r["first_at"], r["last_at"]) for r in rows]
    return found


@dataclass
class MemoryDetail:
    memory: Memory
    edges_out: list[Edge]
    edges_in: list[Edge]
    history: list[MemoryHistory]


def memory_detail(*, actor: Actor, memory_id, forgotten: bool = False) -> MemoryDetail:
    """A memory with its live edges (only to memories the actor may see) and its history;
    ``forgotten``: a forgotten one too (its history ends in FORGET)."""
    memory = memory_get_for_actor(actor=actor, memory_id=memory_id, forgotten=forgotten)
    visible = Memory.objects.live().visible_to(actor).values("id")
    edges = Edge.objects.live().select_related("source", "target").defer("source__embedding", "target__embedding")
    return MemoryDetail(
        memory=memory,
        edges_out=list(edges.filter(source=memory, target__in=visible)),
        edges_in=list(edges.filter(target=memory, source__in=visible)),
        history=list(memory.history.all()),
    )

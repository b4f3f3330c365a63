"""Profiles: one per owner and workspace, always at hand (``get_profile``, ``build_context``).

Built from the owner's current memories visible in the workspace, never from others:

- **static**: stable things (facts, preferences, skills, opinions, procedures, health), the most
  important first, ``HELIX_PROFILE_STATIC_LINES`` at most;
- **dynamic**: what is going on (goals, decisions, events, observations, conclusions) with an
  event time in the last ``HELIX_PROFILE_RECENT_DAYS``, newest first, ``HELIX_PROFILE_DYNAMIC_LINES``
  at most.

Offline every line is a memory as said; with an LLM configured one call condenses the same
candidates into short lines, each citing the memory ids it rests on (lines citing nothing it
was given are dropped; a failed call leaves the rules' profile; a first read builds the rules'
profile at once and leaves the LLM's to the worker). A write or a forget marks the
profile stale and queues one refresh (a burst of writes queues one): the worker clears the mark
before it reads, so a write during a refresh queues the next one. A refresh that never reached the
worker's queue (Redis away) leaves the profile stale: ``profiles_requeue_stale`` queues it again.
A superseded, forgotten or expired memory is not current, so it drops out at the next refresh.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from pydantic import BaseModel, Field

from helixsite.errors import NotFound
from helixsite.task_broker import task_enqueue_after_commit
from memory.models import Memory, MemoryType, Profile
from memory.providers import ProviderError, get_llm
from rbac.actors import Actor
from rbac.models import Workspace
from rbac.policy import is_global_admin, readable_workspace_ids

REFRESH_TASK = "memory.tasks.profile_refresh"
STATIC_TYPES = (
    MemoryType.FACT,
    MemoryType.PREFERENCE,
    MemoryType.SKILL,
    MemoryType.OPINION,
    MemoryType.PROCEDURE,
    MemoryType.HEALTH,
)
DYNAMIC_TYPES = (
    MemoryType.GOAL,
    MemoryType.DECISION,
    MemoryType.EVENT,
    MemoryType.OBSERVATION,
    MemoryType.CONCLUSION,
)
SYSTEM = (
    "You keep a short profile of a person from memories about them. Write two lists of short lines: "
    "static (identity, stable preferences, long-lived background) and dynamic (current projects, recent "
    "context, open goals). Use only the memories given, each shown as '[id] (type) text'; every line cites "
    "the ids of the memories it rests on. Leave out what the memories do not say."
)


class _Line(BaseModel):
    text: str = Field(min_length=1, max_length=500)
    memory_ids: list[str] = Field(min_length=1, max_length=20)


class _LlmProfile(BaseModel):
    static: list[_Line] = Field(default_factory=list, max_length=50)
    dynamic: list[_Line] = Field(default_factory=list, max_length=50)


def profiles_touch(*, user_id: str, workspace_ids: Iterable[int]) -> None:
    """Mark the owner's profiles in these workspaces stale and queue a refresh for each that was not."""
    for workspace_id in set(workspace_ids):
        profile, created = Profile.objects.get_or_create(workspace_id=workspace_id, user_id=user_id)
        marked = created or Profile.objects.filter(pk=profile.pk, stale=False).update(stale=True)
        if marked:
            task_enqueue_after_commit(REFRESH_TASK, profile.pk)


def profiles_requeue_stale(*, before: datetime, limit: int) -> int:
    """Queue a refresh again for up to ``limit`` profiles stale and last refreshed before
    ``before`` (never, or long ago), the longest waiting first: the touch that marked them queued a
    refresh that never reached the worker's queue, or it was lost with it. One that did reach it
    and runs later finds the profile fresh and does nothing. How many were queued."""
    waiting = Profile.objects.filter(Q(refreshed_at__isnull=True) | Q(refreshed_at__lt=before), stale=True)
    ids = list(waiting.order_by(F("refreshed_at").asc(nulls_first=True), "pk").values_list("pk", flat=True)[:limit])
    for profile_id in ids:
        task_enqueue_after_commit(REFRESH_TASK, profile_id)
    return len(ids)


def profiles_touch_memories(memories: Iterable[Memory]) -> None:
    """After memories changed (written, superseded, forgotten, hidden): their owners' profiles."""
    owners: dict[str, set[int]] = {}
    for memory in memories:
        owners.setdefault(memory.user_id, set()).update(memory.visible_in)
    for user_id, workspace_ids in owners.items():
        profiles_touch(user_id=user_id, workspace_ids=workspace_ids)


def profile_refresh(*, profile_id: int, condense: bool = True) -> Profile | None:
    """Build the profile again from the current memories (the worker's task, or a first read,
    which never waits on an LLM: ``condense=False`` builds it by the rules)."""
    if not Profile.objects.filter(pk=profile_id).update(stale=False):
        return None
    profile = Profile.objects.get(pk=profile_id)
    static, dynamic = _candidates(profile)
    lines, method = _rules(static, dynamic), "rules"
    llm = get_llm()
    if condense and llm.enabled and settings.HELIX_PROFILE_LLM and (static or dynamic):
        with contextlib.suppress(ProviderError):  # the rules' profile stands
            lines, method = _condensed(static + dynamic), "llm"
    Profile.objects.filter(pk=profile_id).update(
        static=lines[0],
        dynamic=lines[1],
        method=method,
        sources=len(static) + len(dynamic),
        refreshed_at=timezone.now(),
    )
    profile.refresh_from_db()
    return profile


def profiles_get(*, actor: Actor, user_id: str, group_id: str | int | None = None) -> list[Profile]:
    """The owner's profiles in the workspaces the actor reads (or in ``group_id``, which it must
    read); a workspace where the owner has memories but no profile yet gets one built now."""
    readable = None if is_global_admin(actor) else set(readable_workspace_ids(actor))
    spaces = Workspace.objects.all() if readable is None else Workspace.objects.filter(pk__in=readable)
    if group_id not in (None, ""):
        chosen = spaces.filter(slug=str(group_id)).first()
        if chosen is None and str(group_id).isdigit():
            chosen = spaces.filter(pk=int(str(group_id))).first()
        if chosen is None:
            raise NotFound("No workspace you can read by that slug or id.", field="group_id")
        spaces = spaces.filter(pk=chosen.pk)
    space_ids = set(spaces.values_list("pk", flat=True))
    held = {
        w
        for ids in Memory.objects.current().filter(user_id=user_id).values_list("visible_in", flat=True)
        for w in ids
        if w in space_ids
    }
    profiles = []
    for workspace_id in sorted(held):
        profile, _ = Profile.objects.get_or_create(workspace_id=workspace_id, user_id=user_id)
        if profile.refreshed_at is None:
            profile = profile_refresh(profile_id=profile.pk, condense=False) or profile
            if get_llm().enabled and settings.HELIX_PROFILE_LLM:  # the worker condenses it next
                profiles_touch(user_id=user_id, workspace_ids=[workspace_id])
                profile.refresh_from_db()
        profiles.append(profile)
    return profiles


def profile_out(profile: Profile) -> dict[str, Any]:
    return {
        "workspace": profile.workspace.slug,
        "user_id": profile.user_id,
        "static": profile.static,
        "dynamic": profile.dynamic,
        "method": profile.method,
        "sources": profile.sources,
        "stale": profile.stale,
        "refreshed_at": profile.refreshed_at.isoformat() if profile.refreshed_at else None,
    }


def _candidates(profile: Profile) -> tuple[list[Memory], list[Memory]]:
    mine = Memory.objects.current().filter(user_id=profile.user_id, visible_in__contains=[profile.workspace_id])
    fields = ("id", "content", "memory_type", "importance", "valid_from", "created_at")
    static = list(
        mine.filter(memory_type__in=STATIC_TYPES)
        .only(*fields)
        .order_by("-importance", "-valid_from")[: settings.HELIX_PROFILE_STATIC_LINES]
    )
    since = timezone.now() - timedelta(days=settings.HELIX_PROFILE_RECENT_DAYS)
    dynamic = list(
        mine.filter(memory_type__in=DYNAMIC_TYPES, valid_from__gte=since)
        .only(*fields)
        .order_by("-valid_from")[: settings.HELIX_PROFILE_DYNAMIC_LINES]
    )
    return static, dynamic


def _rules(static: list[Memory], dynamic: list[Memory]) -> tuple[list[dict], list[dict]]:
    def lines(memories: list[Memory]) -> list[dict]:
        seen: dict[str, dict] = {}
        for memory in memories:
            text = memory.content.strip()
            if text.lower() in seen:
                seen[text.lower()]["memory_ids"].append(str(memory.id))
            else:
                seen[text.lower()] = {"text": text, "memory_ids": [str(memory.id)], "kind": memory.memory_type}
        return list(seen.values())

    return lines(static), lines(dynamic)


def _condensed(candidates: list[Memory]) -> tuple[list[dict], list[dict]]:
    given = {str(m.id): m for m in candidates}
    prompt = "\n".join(f"[{m.id}] ({m.memory_type}) {m.content}" for m in candidates)
    reply = get_llm().complete_json(purpose="profile", system=SYSTEM, prompt=prompt, schema=_LlmProfile)

    def kept(lines: list[_Line]) -> list[dict]:
        out = []
        for line in lines:
            cited = [i for i in dict.fromkeys(line.memory_ids) if i in given]
            if cited and line.text.strip():
                out.append({"text": line.text.strip(), "memory_ids": cited, "kind": given[cited[0]].memory_type})
        return out

    return kept(reply.static), kept(reply.dynamic)

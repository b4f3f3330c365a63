"""Reads of FastThink: a session's status and the actor's unfinished sessions. Only ever
the actor's own sessions: another actor's session of the same name is not found."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from helixsite.errors import NotFound
from memory.fastthink import inputs
from memory.fastthink.models import ThinkSession, Thought
from memory.fastthink.results import session_result, thought_result
from rbac.actors import Actor


def think_status(*, actor: Actor, session_id: str) -> dict[str, Any]:
    """State, budget and every thought of the actor's newest session of that name, in
    whatever state (until the sweep deletes an ended one)."""
    inputs.require_principal(actor)
    name = inputs.session_name(session_id)
    session = (
        ThinkSession.objects.owned_by(actor)
        .filter(session_id=name)
        .order_by("-started_at", "-id")
        .prefetch_related(_thoughts())
        .first()
    )
    if session is None:
        raise NotFound("Think session not found.", field="session_id")
    return {
        "ok": True,
        "session": session_result(session, timezone.now()),
        "thoughts": [thought_result(t) for t in session.thoughts.all()],
    }


def search_incomplete_thoughts(*, actor: Actor, user_id: str | None = None, limit: int = 10) -> dict[str, Any]:
    """The actor's sessions still waiting for it (thinking, decided or timed out), newest
    first, with their thoughts, so an agent can pick one up again with think_start. With
    ``user_id``, only the sessions that recalled about (or committed for) that owner."""
    inputs.require_principal(actor)
    owner = inputs.owner(user_id, required=False)
    sessions = ThinkSession.objects.owned_by(actor).unfinished()
    if owner:
        sessions = sessions.filter(user_id=owner)
    now = timezone.now()
    found = list(sessions.order_by("-started_at", "-id").prefetch_related(_thoughts())[:limit])
    return {
        "ok": True,
        "sessions": [
            {**session_result(s, now), "thoughts": [thought_result(t) for t in s.thoughts.all()]} for s in found
        ],
        "count": len(found),
    }


def _thoughts() -> Prefetch:
    return Prefetch("thoughts", queryset=Thought.objects.order_by("idx"))

"""FastThink fixtures: bob's memories in the team workspace, and a way to let time pass."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from memory.fastthink.models import ThinkSession


@pytest.fixture
def bob_memories(add) -> dict[str, str]:
    """Three of bob's memories the writer stored in the team workspace, by a short name."""
    return {
        "staging": add("The staging database is db-7.", extract=False)["memory_ids"][0],
        "fridays": add("Deploys to staging happen on Fridays.", extract=False)["memory_ids"][0],
        "coffee": add("Bob drinks oat milk flat whites.", extract=False)["memory_ids"][0],
    }


@pytest.fixture
def age() -> Callable[..., None]:
    """age(session_id, seconds=…): the sessions of that name started (and ended) that long ago."""

    def _age(session_id: str, *, seconds: float) -> None:
        shift = timedelta(seconds=seconds)
        for session in ThinkSession.objects.filter(session_id=session_id):
            session.started_at -= shift
            session.deadline_at -= shift
            session.ended_at = session.ended_at - shift if session.ended_at else None
            session.save(update_fields=["started_at", "deadline_at", "ended_at"])

    return _age

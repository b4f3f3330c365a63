"""The JSON shapes the FastThink tools answer with: plain dicts, ids as strings, times ISO."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from memory.fastthink.models import SessionState, ThinkSession, Thought, TimeoutReason


def session_result(session: ThinkSession, now: datetime) -> dict[str, Any]:
    """A session's state and budget. A running session past its deadline reads as timed out
    even before a call or the sweep has marked it so."""
    late = session.is_past_deadline(now)
    reason = TimeoutReason.WALL_CLOCK if late else session.timed_out_reason
    return {
        "session_id": session.session_id,
        "state": SessionState.TIMED_OUT.value if late else session.state,
        "started_at": session.started_at.isoformat(),
        "deadline_at": session.deadline_at.isoformat(),
        "ended_at": session.ended_at.isoformat() if session.ended_at else None,
        "seconds_left": session.seconds_left(now),
        "thought_count": session.thought_count,
        "thoughts_left": max(0, session.max_thoughts - session.thought_count),
        "limits": {
            "max_seconds": session.max_seconds,
            "max_thoughts": session.max_thoughts,
            "max_chars": settings.HELIX_THINK_MAX_CHARS,
        },
        "timed_out_reason": str(reason) if reason else None,
        "user_id": session.user_id or None,
        "committed_memory_id": str(session.committed_memory_id) if session.committed_memory_id else None,
    }


def thought_result(thought: Thought) -> dict[str, Any]:
    return {
        "idx": thought.idx,
        "type": thought.thought_type,
        "content": thought.content,
        "parent_idx": thought.parent_idx,
        "memory_id": str(thought.memory_id) if thought.memory_id else None,
        "supporting": thought.supporting,
        "created_at": thought.created_at.isoformat(),
    }

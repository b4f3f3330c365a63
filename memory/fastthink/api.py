"""The FastThink tools: scratch reasoning sessions bound to their actor, committed to memory
only as conclusions."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from memory.fastthink.models import ThoughtType
from memory.fastthink.selectors import search_incomplete_thoughts, think_status
from memory.fastthink.services import think_add, think_commit, think_conclude, think_discard, think_recall, think_start
from rbac.actors import Actor

SESSION = {
    "session_id": "plan-migration",
    "state": "thinking",
    "started_at": "2026-11-02T10:00:00+00:00",
    "deadline_at": "2026-11-02T10:01:30+00:00",
    "ended_at": None,
    "seconds_left": 87.3,
    "thought_count": 1,
    "thoughts_left": 149,
    "limits": {"max_seconds": 90, "max_thoughts": 150, "max_chars": 4000},
    "timed_out_reason": None,
    "user_id": None,
    "committed_memory_id": None,
}
THOUGHT = {
    "idx": 0,
    "type": "reasoning",
    "content": "Which day suits the staging migration?",
    "parent_idx": None,
    "memory_id": None,
    "supporting": False,
    "created_at": "2026-11-02T10:00:00+00:00",
}


class SessionInput(ActorInput):
    session_id = serializers.CharField(max_length=200, help_text="your name for the session, unique among yours")


class SessionOut(serializers.Serializer):
    ok = serializers.BooleanField()
    session = serializers.DictField(help_text="state thinking|decided|timed_out|committed|discarded, limits, time left")


class ThoughtOut(SessionOut):
    thought = serializers.DictField(help_text="idx, type, content, parent_idx, memory_id, supporting, created_at")


class ThinkStartApi(ToolApi):
    """Open a scratch reasoning session (90 s, 150 thoughts by default) bound to you."""

    tool = "think_start"
    kind = ToolKind.WRITE
    example = {
        "request": {
            "actor_id": "codex",
            "session_id": "plan-migration",
            "initial_thought": "Which day suits the staging migration?",
        },
        "response": {"ok": True, "session": SESSION, "thought": THOUGHT},
    }

    class InputSerializer(SessionInput):
        initial_thought = serializers.CharField(trim_whitespace=False)

    OutputSerializer = ThoughtOut

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_start(actor=actor, **params)


class ThinkAddApi(ToolApi):
    """Add one reasoning step, optionally under an earlier thought."""

    tool = "think_add"
    kind = ToolKind.WRITE
    example = {
        "request": {
            "actor_id": "codex",
            "session_id": "plan-migration",
            "content": "Fridays have the fewest deploys.",
            "thought_type": "hypothesis",
            "parent_idx": 0,
        },
        "response": {
            "ok": True,
            "session": {**SESSION, "thought_count": 2},
            "thought": {
                **THOUGHT,
                "idx": 1,
                "type": "hypothesis",
                "parent_idx": 0,
                "content": "Fridays have the fewest deploys.",
            },
        },
    }

    class InputSerializer(SessionInput):
        content = serializers.CharField(trim_whitespace=False)
        thought_type = serializers.ChoiceField(
            choices=[t for t in ThoughtType.values if t not in ("conclusion",)], default="reasoning"
        )
        parent_idx = serializers.IntegerField(required=False, allow_null=True, min_value=0)

    OutputSerializer = ThoughtOut

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_add(actor=actor, **params)


class ThinkRecallApi(ToolApi):
    """Pull memories you may read into the session as evidence (read-only: nothing changes)."""

    tool = "think_recall"
    kind = ToolKind.WRITE
    example = {
        "request": {
            "actor_id": "codex",
            "session_id": "plan-migration",
            "query": "staging deploy days",
            "parent_idx": 1,
            "user_id": "team",
        },
        "response": {
            "ok": True,
            "session": SESSION,
            "count": 1,
            "already_recalled": [],
            "recalled": [
                {
                    **THOUGHT,
                    "idx": 2,
                    "type": "observation",
                    "parent_idx": 1,
                    "content": "Staging deploys run on Fridays.",
                    "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "score": 0.81,
                }
            ],
        },
    }

    class InputSerializer(SessionInput):
        query = serializers.CharField(trim_whitespace=False)
        parent_idx = serializers.IntegerField(min_value=0)
        user_id = serializers.CharField(required=False, max_length=200, help_text="one owner; omitted: all you read")
        limit = serializers.IntegerField(required=False, min_value=1, max_value=20)

    class OutputSerializer(SessionOut):
        recalled = serializers.ListField(child=serializers.DictField())
        count = serializers.IntegerField()
        already_recalled = serializers.ListField(child=serializers.DictField())

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_recall(actor=actor, **params)


class ThinkConcludeApi(ToolApi):
    """Mark the conclusion and the thoughts that support it; the session is then decided."""

    tool = "think_conclude"
    kind = ToolKind.WRITE
    example = {
        "request": {
            "actor_id": "codex",
            "session_id": "plan-migration",
            "conclusion": "Migrate staging on a Friday.",
            "supporting_idx": [2],
        },
        "response": {
            "ok": True,
            "session": {**SESSION, "state": "decided"},
            "supporting_idx": [2],
            "conclusion": {**THOUGHT, "idx": 3, "type": "conclusion", "content": "Migrate staging on a Friday."},
        },
    }

    class InputSerializer(SessionInput):
        conclusion = serializers.CharField(trim_whitespace=False)
        supporting_idx = serializers.ListField(
            child=serializers.IntegerField(min_value=0), required=False, default=list, max_length=150
        )

    class OutputSerializer(SessionOut):
        conclusion = serializers.DictField()
        supporting_idx = serializers.ListField(child=serializers.IntegerField())

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_conclude(actor=actor, **params)


class ThinkCommitApi(ToolApi):
    """Write the conclusion (only the conclusion) to memory through add_memory, with SUPPORTS
    edges from the evidence it cites."""

    tool = "think_commit"
    kind = ToolKind.MEMORY_WRITE
    example = {
        "request": {"actor_id": "codex", "session_id": "plan-migration", "user_id": "team", "group_id": "team-red"},
        "response": {
            "ok": True,
            "memory_id": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
            "memory_ids": ["9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d"],
            "updated": [],
            "deduped": [],
            "supported_by": ["3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"],
            "session": {**SESSION, "state": "committed"},
        },
    }

    class InputSerializer(SessionInput):
        user_id = serializers.CharField(max_length=200)
        group_id = serializers.CharField(required=False, max_length=100)

    class OutputSerializer(SessionOut):
        memory_id = serializers.UUIDField(allow_null=True)
        memory_ids = serializers.ListField(child=serializers.UUIDField())
        updated = serializers.ListField(child=serializers.UUIDField())
        deduped = serializers.ListField(child=serializers.UUIDField())
        supported_by = serializers.ListField(child=serializers.UUIDField())

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_commit(actor=actor, **params)


class ThinkDiscardApi(ToolApi):
    """Throw a session away (thinking, decided or timed out); nothing is written."""

    tool = "think_discard"
    kind = ToolKind.WRITE
    InputSerializer = SessionInput
    OutputSerializer = SessionOut
    example = {
        "request": {"actor_id": "codex", "session_id": "plan-migration"},
        "response": {"ok": True, "session": {**SESSION, "state": "discarded"}},
    }

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_discard(actor=actor, **params)


class ThinkStatusApi(ToolApi):
    """A session's state, budget left and thoughts."""

    tool = "think_status"
    kind = ToolKind.READ
    InputSerializer = SessionInput
    example = {
        "request": {"actor_id": "codex", "session_id": "plan-migration"},
        "response": {"ok": True, "session": SESSION, "thoughts": [THOUGHT]},
    }

    class OutputSerializer(SessionOut):
        thoughts = serializers.ListField(child=serializers.DictField())

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return think_status(actor=actor, **params)


class SearchIncompleteThoughtsApi(ToolApi):
    """Your own sessions that timed out or were never committed, newest first, to resume."""

    tool = "search_incomplete_thoughts"
    kind = ToolKind.READ
    example = {
        "request": {"actor_id": "codex", "limit": 3},
        "response": {
            "ok": True,
            "count": 1,
            "sessions": [{**SESSION, "state": "timed_out", "timed_out_reason": "wall_clock", "thoughts": [THOUGHT]}],
        },
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(required=False, max_length=200)
        limit = serializers.IntegerField(min_value=1, max_value=50, default=10)

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        sessions = serializers.ListField(child=serializers.DictField())
        count = serializers.IntegerField()

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return search_incomplete_thoughts(actor=actor, **params)

"""The presence tools: which agent instances are at work, and their goodbyes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from helixsite.agents.agent_ids import AgentIdField
from helixsite.agents.tool import ActorInput, ToolApi, ToolInput, ToolKind
from rbac.actors import Actor
from rbac.presence.models import STATUS_MAX
from rbac.presence.selectors import swarm_status
from rbac.presence.services import agent_farewell, agent_heartbeat

SEEN = "2026-11-02T10:00:00+00:00"


class AgentHeartbeatApi(ToolApi):
    """Publish or refresh one running instance of you (writes no memory). Call it on start
    and at meaningful progress; end with agent_farewell, not a terminal status."""

    tool = "agent_heartbeat"
    kind = ToolKind.WRITE
    example = {
        "request": {"actor_id": "codex", "agent_id": "codex:main", "status": "reading the repository"},
        "response": {
            "ok": True,
            "actor_id": "codex",
            "agent_id": "codex:main",
            "status": "reading the repository",
            "parent_agent_id": None,
            "first_seen": SEEN,
            "last_seen": SEEN,
            "outcome": "created",
        },
    }

    class InputSerializer(ActorInput):
        agent_id = AgentIdField()
        status = serializers.CharField(required=False, max_length=STATUS_MAX, help_text="non-terminal, one line")
        parent_agent_id = AgentIdField(
            required=False, allow_null=True, help_text="a live root instance of yours: this is its subagent"
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        actor_id = serializers.CharField()
        agent_id = serializers.CharField()
        status = serializers.CharField()
        parent_agent_id = serializers.CharField(allow_null=True)
        first_seen = serializers.DateTimeField()
        last_seen = serializers.DateTimeField()
        outcome = serializers.ChoiceField(choices=["created", "refreshed", "revived"])

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return agent_heartbeat(actor=actor, **params)


class SwarmStatusApi(ToolApi):
    """Who is at work: principals you share a workspace with, their instances and subagents,
    active (seen within the window) against total."""

    tool = "swarm_status"
    kind = ToolKind.READ
    example = {
        "request": {"active_window_secs": 300},
        "response": {
            "ok": True,
            "as_of": SEEN,
            "window_secs": 300,
            "active": 1,
            "total": 1,
            "instances_active": 1,
            "instances_total": 1,
            "subagents_active": 0,
            "subagents_total": 0,
            "truncated": False,
            "roster_limit": 500,
            "families": [
                {
                    "actor_id": "codex",
                    "kind": "agent",
                    "active": True,
                    "last_seen": SEEN,
                    "instances_active": 1,
                    "instances_total": 1,
                    "instances": [
                        {
                            "agent_id": "codex:main",
                            "parent_agent_id": None,
                            "status": "reading the repository",
                            "first_seen": SEEN,
                            "last_seen": SEEN,
                            "active": True,
                            "subagents": [],
                        }
                    ],
                }
            ],
        },
    }

    class InputSerializer(ToolInput):
        actor_id = serializers.CharField(required=False, max_length=150, help_text="optional: the token's principal")
        active_window_secs = serializers.IntegerField(required=False, min_value=1, max_value=7 * 24 * 3600)

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        as_of = serializers.DateTimeField()
        window_secs = serializers.IntegerField()
        active = serializers.IntegerField(help_text="principals with an instance seen within the window")
        total = serializers.IntegerField(help_text="principals with a live instance")
        instances_active = serializers.IntegerField()
        instances_total = serializers.IntegerField()
        subagents_active = serializers.IntegerField()
        subagents_total = serializers.IntegerField()
        families = serializers.ListField(child=serializers.DictField())
        truncated = serializers.BooleanField()
        roster_limit = serializers.IntegerField()

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return swarm_status(actor=actor, **params)


class AgentFarewellApi(ToolApi):
    """End one of your own instances (and its subagents). Authorship of memories is unchanged."""

    tool = "agent_farewell"
    kind = ToolKind.WRITE
    example = {
        "request": {"actor_id": "codex", "agent_id": "codex:main"},
        "response": {
            "ok": True,
            "actor_id": "codex",
            "agent_id": "codex:main",
            "already_ended": False,
            "ended_at": SEEN,
            "end_reason": "farewell",
            "subagents_ended": [],
        },
    }

    class InputSerializer(ActorInput):
        agent_id = AgentIdField()

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        actor_id = serializers.CharField()
        agent_id = serializers.CharField()
        already_ended = serializers.BooleanField()
        ended_at = serializers.DateTimeField()
        end_reason = serializers.CharField()
        subagents_ended = serializers.ListField(child=serializers.CharField())

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return agent_farewell(actor=actor, **params)

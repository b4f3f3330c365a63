"""get_add_status: where a buffered write stands."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from memory.outbox.selectors import add_status_get
from rbac.actors import Actor


class GetAddStatusApi(ToolApi):
    """Where a buffered add_memory stands (queued, running, done with its result, or failed).
    Only its creator, its owner or a global admin may ask."""

    tool = "get_add_status"
    kind = ToolKind.READ
    example = {
        "request": {"actor_id": "codex", "pending_id": "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"},
        "response": {
            "ok": True,
            "pending_id": "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
            "status": "done",
            "user_id": "alice",
            "group_id": "team-red",
            "created_at": "2026-11-02T10:00:00+00:00",
            "started_at": "2026-11-02T10:00:01+00:00",
            "finished_at": "2026-11-02T10:00:02+00:00",
            "result": {
                "ok": True,
                "memory_ids": ["3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"],
                "updated": [],
                "deduped": [],
            },
        },
    }

    class InputSerializer(ActorInput):
        pending_id = serializers.UUIDField()

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        pending_id = serializers.UUIDField()
        status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
        user_id = serializers.CharField()
        group_id = serializers.CharField()
        created_at = serializers.DateTimeField()
        started_at = serializers.DateTimeField(allow_null=True)
        finished_at = serializers.DateTimeField(allow_null=True)
        result = serializers.DictField(required=False, help_text="the add_memory answer, once done")
        error = serializers.DictField(required=False, help_text="code and message, once failed")

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return add_status_get(actor=actor, **params)

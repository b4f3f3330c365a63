"""resolve_contradiction: settle a contradiction_review notice."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from helixsite.agents.tool import ToolApi, ToolInput, ToolKind
from memory.charter.services import contradiction_resolve
from rbac.actors import Actor

NEW, OLD = "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01", "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d"


class ResolveContradictionApi(ToolApi):
    """Answer a contradiction_review notice with the exact ids it gave: confirm (both stand),
    retract (the newer replaces the older: superseded, history kept) or preference (both hold,
    in different contexts). Three equal verdicts on one kind of conflict propose a rule."""

    tool = "resolve_contradiction"
    kind = ToolKind.MEMORY_WRITE
    example = {
        "request": {"actor_id": "codex", "from_id": NEW, "to_id": OLD, "resolution": "retract"},
        "response": {
            "ok": True,
            "review_id": "5b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
            "from_id": NEW,
            "to_id": OLD,
            "conflict_kind": "fact:residence",
            "status": "settled",
            "resolution": "retract",
            "resolved_at": "2026-11-02T10:00:00+00:00",
            "settled_by_rule": None,
            "already_settled": False,
            "superseded": [OLD],
            "rule_proposal": None,
        },
    }

    class InputSerializer(ToolInput):
        actor_id = serializers.CharField(required=False, max_length=150, help_text="optional: the token's principal")
        from_id = serializers.UUIDField(help_text="the newer memory, as the notice names it")
        to_id = serializers.UUIDField(help_text="the older memory, as the notice names it")
        resolution = serializers.ChoiceField(choices=["confirm", "retract", "preference"])

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        review_id = serializers.UUIDField()
        from_id = serializers.UUIDField()
        to_id = serializers.UUIDField()
        conflict_kind = serializers.CharField()
        status = serializers.CharField()
        resolution = serializers.CharField()
        resolved_at = serializers.DateTimeField()
        settled_by_rule = serializers.DictField(allow_null=True)
        already_settled = serializers.BooleanField()
        superseded = serializers.ListField(child=serializers.UUIDField())
        rule_proposal = serializers.DictField(allow_null=True, help_text="set when this verdict completes one")

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return contradiction_resolve(actor=actor, **params)

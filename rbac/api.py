"""Agent-facing endpoints of the access-control app."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from rbac.actors import Actor
from rbac.selectors import users_list
from rbac.services import enroll_client


class UserOut(serializers.Serializer):
    id = serializers.IntegerField()
    actor_id = serializers.CharField(source="username")
    kind = serializers.CharField(source="principal.kind", default="human")
    is_active = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)


class WhoAmIApi(APIView):
    """Who the presented credentials belong to: lets an agent check its token."""

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField(default=True)
        actor_id = serializers.CharField(source="username")
        kind = serializers.CharField(source="principal.kind", default="human")
        is_global_admin = serializers.BooleanField(source="principal.is_global_admin", default=False)

    @extend_schema(operation_id="whoami", responses={200: OutputSerializer}, summary="Who this token belongs to")
    def get(self, request: Request) -> Response:
        return Response({"ok": True, **self.OutputSerializer(request.user).data})


class EnrollClientApi(ToolApi):
    """Admit the calling principal as worker in the onboarding workspace (idempotent)."""

    tool = "enroll_client"
    kind = ToolKind.WRITE
    example = {
        "request": {"actor_id": "codex"},
        "response": {
            "ok": True,
            "actor_id": "codex",
            "workspace": "onboarding",
            "role": "worker",
            "enrolled_at": "2026-11-02T10:00:00+00:00",
            "admitted_now": True,
        },
    }
    InputSerializer = ActorInput

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        actor_id = serializers.CharField()
        workspace = serializers.CharField()
        role = serializers.CharField()
        enrolled_at = serializers.DateTimeField()
        admitted_now = serializers.BooleanField(help_text="false when it was admitted before: nothing changed")

    @classmethod
    def run(cls, *, actor: User) -> dict[str, Any]:
        enrollment = enroll_client(actor=actor)
        return {
            "ok": True,
            "actor_id": actor.get_username(),
            "workspace": enrollment.workspace,
            "role": enrollment.role,
            "enrolled_at": enrollment.enrolled_at.isoformat(),
            "admitted_now": enrollment.admitted_now,
        }


class ListUsersApi(ToolApi):
    """The principals registry: global admins only; ids, names and timestamps."""

    tool = "list_users"
    kind = ToolKind.READ
    example = {
        "request": {"actor_id": "admin", "limit": 10},
        "response": {
            "ok": True,
            "users": [
                {
                    "id": 1,
                    "actor_id": "admin",
                    "kind": "human",
                    "is_active": True,
                    "date_joined": "2026-11-01T08:00:00+00:00",
                    "last_login": None,
                }
            ],
            "next_cursor": None,
        },
    }

    class InputSerializer(ActorInput):
        limit = serializers.IntegerField(min_value=1, max_value=1000, default=100)
        cursor = serializers.IntegerField(min_value=0, default=0, help_text="next_cursor of the previous page")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        users = UserOut(many=True)
        next_cursor = serializers.IntegerField(allow_null=True, help_text="null on the last page")

    @classmethod
    def run(cls, *, actor: Actor, limit: int, cursor: int) -> dict[str, Any]:
        page = list(users_list(actor=actor, limit=limit + 1, offset=cursor))
        more = len(page) > limit
        return {
            "ok": True,
            "users": UserOut(page[:limit], many=True).data,
            "next_cursor": cursor + limit if more else None,
        }

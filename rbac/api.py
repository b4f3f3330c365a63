"""Agent-facing endpoints of the access-control app."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rbac.permissions import ActorIsCaller
from rbac.selectors import users_list
from rbac.services import enroll_client


class AgentApiView(APIView):
    permission_classes = [IsAuthenticated, ActorIsCaller]


class WhoAmIApi(APIView):
    """Who the presented credentials belong to: lets an agent check its token."""

    class OutputSerializer(serializers.Serializer):
        actor_id = serializers.CharField(source="username")
        kind = serializers.CharField(source="principal.kind", default="human")
        is_global_admin = serializers.BooleanField(source="principal.is_global_admin", default=False)

    def get(self, request: Request) -> Response:
        return Response({"ok": True, **self.OutputSerializer(request.user).data})


class EnrollClientApi(AgentApiView):
    """Admit the calling principal as worker in the onboarding workspace (idempotent)."""

    class InputSerializer(serializers.Serializer):
        actor_id = serializers.CharField(max_length=150)

    def post(self, request: Request) -> Response:
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        enrollment = enroll_client(actor=request.user)
        return Response(
            {
                "ok": True,
                "actor_id": request.user.get_username(),
                "workspace": enrollment.workspace,
                "role": enrollment.role,
                "enrolled_at": enrollment.enrolled_at,
                "admitted_now": enrollment.admitted_now,
            }
        )


class ListUsersApi(AgentApiView):
    """The principals registry: global admins only; ids, names and timestamps."""

    class InputSerializer(serializers.Serializer):
        actor_id = serializers.CharField(max_length=150)
        limit = serializers.IntegerField(min_value=1, max_value=1000, default=100)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        actor_id = serializers.CharField(source="username")
        kind = serializers.CharField(source="principal.kind", default="human")
        is_active = serializers.BooleanField()
        date_joined = serializers.DateTimeField()
        last_login = serializers.DateTimeField()

    def get(self, request: Request) -> Response:
        params = self.InputSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        users = users_list(actor=request.user, limit=params.validated_data["limit"])
        return Response({"ok": True, "users": self.OutputSerializer(users, many=True).data})

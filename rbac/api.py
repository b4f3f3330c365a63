"""Agent-facing endpoints of the access-control app."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class WhoAmIApi(APIView):
    """Who the presented credentials belong to: lets an agent check its token."""

    class OutputSerializer(serializers.Serializer):
        actor_id = serializers.CharField(source="username")
        kind = serializers.CharField(source="principal.kind", default="human")
        is_global_admin = serializers.BooleanField(source="principal.is_global_admin", default=False)

    def get(self, request: Request) -> Response:
        return Response({"ok": True, **self.OutputSerializer(request.user).data})

"""DRF permissions for agent calls."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from helixsite.errors import Forbidden


class ActorIsCaller(BasePermission):
    """The call's ``actor_id`` must name the authenticated principal: a token acts only as itself.

    Views that let a global admin act for others say so with ``admin_may_act_for_others = True``.
    """

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        source = request.query_params if request.method in SAFE_METHODS else request.data
        actor_id = source.get("actor_id") if hasattr(source, "get") else None
        if actor_id is None or actor_id == request.user.get_username():
            return True  # a missing actor_id is the input serializer's to reject
        from rbac.policy import is_global_admin

        if getattr(view, "admin_may_act_for_others", False) and is_global_admin(request.user):
            return True
        raise Forbidden("actor_id must be the principal the token belongs to.", code="actor_mismatch", field="actor_id")

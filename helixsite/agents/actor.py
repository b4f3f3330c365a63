"""The actor check, the same for REST and MCP: a call's ``actor_id`` must name the principal
its token belongs to. A token acts only as itself."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from helixsite.errors import Forbidden


def actor_check(*, actor: AbstractBaseUser | AnonymousUser, claimed: Any) -> None:
    """Refuse a call whose ``actor_id`` names someone else. A missing ``actor_id`` passes here:
    the tool's input serializer reports it as a missing field."""
    if claimed is not None and claimed != actor.get_username():
        raise Forbidden("actor_id must be the principal the token belongs to.", code="actor_mismatch", field="actor_id")


class ActorIsCaller(BasePermission):
    """``actor_check`` as a DRF permission, on every REST tool."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        source = request.query_params if request.method in SAFE_METHODS else request.data
        actor_check(actor=request.user, claimed=source.get("actor_id") if hasattr(source, "get") else None)
        return True

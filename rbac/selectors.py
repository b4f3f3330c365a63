"""Reads for principals and their access."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from helixsite.errors import Forbidden, NotFound
from rbac.actors import Actor
from rbac.models import Membership
from rbac.policy import is_global_admin


def users_list(*, actor: Actor, limit: int = 100, offset: int = 0) -> QuerySet:
    """The registry of principals, for global admins only: ids, names, timestamps."""
    if not is_global_admin(actor):
        raise Forbidden("Only a global admin may list users.", details={"action": "list_users"})
    return get_user_model().objects.select_related("principal").order_by("username")[offset : offset + limit]


def principals_with_roles() -> QuerySet:
    memberships = Membership.objects.select_related("workspace").order_by("workspace__slug")
    return (
        get_user_model()
        .objects.select_related("principal")
        .prefetch_related(Prefetch("memberships", queryset=memberships))
        .order_by("username")
    )


def user_get_by_name(*, username: str) -> User:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound(f"No principal named {username}.", field="username")
    return user

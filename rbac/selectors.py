"""Reads for principals and their access."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from helixsite.errors import Forbidden, NotFound
from rbac.actors import Actor
from rbac.models import Membership, Role, Workspace
from rbac.policy import Action, Decision, Rule, access_decide, is_global_admin


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


@dataclass(frozen=True)
class AccessAnswer:
    """The answer to "may this principal do this in this workspace?", with the rule that decided it."""

    decision: Decision
    role: str | None
    reason: str

    @property
    def allowed(self) -> bool:
        return self.decision.allowed


def access_explain(*, user: User, action: Action, workspace: Workspace) -> AccessAnswer:
    """The policy's own decision (``access_decide``, which ``authorize`` raises), put in words."""
    decision = access_decide(actor=user, action=action, workspace=workspace)
    role = Membership.objects.filter(user=user, workspace=workspace).values_list("role", flat=True).first()
    return AccessAnswer(decision=decision, role=role, reason=_reason(decision, user, action, workspace, role))


def _reason(decision: Decision, user: User, action: Action, workspace: Workspace, role: str | None) -> str:
    name, slug, permission = user.get_username(), workspace.slug, decision.permission
    label = Role(role).label if role in Role.values else role
    held = f"{name} is {label} in {slug}" if role else f"{name} has no role in {slug}"
    reasons = {
        Rule.INACTIVE: f"{name} is deactivated: nothing is allowed, and the API refuses its tokens.",
        Rule.RESERVED_WORKSPACE: f"{name} is a global admin, but {slug} is reserved: it is never federated or deleted.",
        Rule.GLOBAL_ADMIN: f"{name} is a global admin, allowed everything in every workspace without a role there.",
        Rule.CANNOT_READ: f"{held}, so it cannot read {slug}; to it the workspace does not exist.",
        Rule.ADMIN_ONLY: f"{held}; only a global admin may {action.replace('_', ' ')}, whatever the role.",
        Rule.PERMISSION_MISSING: f"{held}; that role does not carry {permission}, which {action} needs.",
        Rule.PERMISSION_GRANTED: f"{held}; that role carries {permission}, which {action} needs.",
    }
    return reasons[decision.rule]

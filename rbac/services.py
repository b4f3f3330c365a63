"""Writes for principals, tokens, workspaces, memberships and federations.

Every service takes the acting principal and asks the policy first; management
commands act as ``SYSTEM``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from guardian.shortcuts import assign_perm, remove_perm

from helixsite.db import replicas
from helixsite.errors import Conflict, Forbidden, InvalidInput, NotFound
from rbac.actors import Actor, SystemActor
from rbac.models import ApiToken, Federation, FederationMember, Membership, Principal, Role, Workspace
from rbac.policy import ALL_PERMISSIONS, ROLE_PERMISSIONS, SYSTEM, Action, authorize, is_global_admin
from rbac.tokens import token_generate


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    raw: str


# --- principals ------------------------------------------------------------------------


def principal_create(
    *, username: str, kind: str = Principal.Kind.HUMAN, is_global_admin: bool = False, password: str | None = None
) -> Principal:
    user_model = get_user_model()
    taken = Conflict(f"A principal named {username} exists already.", code="name_taken", field="username")
    if user_model.objects.filter(username=username).exists():
        raise taken
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(
                username=username, password=password, is_staff=is_global_admin, is_superuser=is_global_admin
            )
            if password is None:
                user.set_unusable_password()
                user.save(update_fields=["password"])
            return Principal.objects.create(user=user, kind=kind, is_global_admin=is_global_admin)
    except IntegrityError:  # the same name, created by a concurrent call since the check above
        raise taken from None


def principal_deactivate(*, actor: Actor, user: User) -> None:
    _require_global_admin(actor, "deactivate principals")
    with transaction.atomic():
        _guard_last_admin(user)
        user.is_active = False
        user.save(update_fields=["is_active"])


def principal_reactivate(*, actor: Actor, user: User) -> None:
    """Let a deactivated principal act again; its tokens that were not revoked work again with it."""
    _require_global_admin(actor, "reactivate principals")
    user.is_active = True
    user.save(update_fields=["is_active"])


def principal_set_global_admin(*, actor: Actor, user: User, is_admin: bool) -> Principal:
    _require_global_admin(actor, "change global admins")
    with transaction.atomic():
        principal, _ = Principal.objects.select_for_update().get_or_create(user=user)
        if not is_admin:
            _guard_last_admin(user)
        principal.is_global_admin = is_admin
        principal.save(update_fields=["is_global_admin"])
        # Django admin access follows the global role.
        user.is_staff = user.is_superuser = is_admin
        user.save(update_fields=["is_staff", "is_superuser"])
    return principal


def _guard_last_admin(user: User) -> None:
    """Refuse to remove the last active global admin. Locks the admin rows to serialize racing calls."""
    admins = list(
        Principal.objects.select_for_update()
        .filter(is_global_admin=True, user__is_active=True)
        .values_list("user_id", flat=True)
    )
    if admins == [user.pk]:
        raise Conflict("The last active global admin cannot be deactivated or demoted.", code="last_admin")


def _require_global_admin(actor: Actor, what: str) -> None:
    if not is_global_admin(actor):
        raise Forbidden(f"Only a global admin may {what}.")


# --- tokens ----------------------------------------------------------------------------


def token_issue(*, user: User, name: str) -> IssuedToken:
    raw, prefix, digest = token_generate()
    token = ApiToken.objects.create(user=user, name=name, prefix=prefix, digest=digest)
    return IssuedToken(token=token, raw=raw)


def token_revoke(*, token: ApiToken) -> None:
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


# --- workspaces --------------------------------------------------------------------------


def workspace_create(*, actor: Actor, name: str, slug: str | None = None) -> Workspace:
    _require_global_admin(actor, "create workspaces")
    return _create_named(Workspace, name=name, slug=slug)


def _create_named(model: type[Workspace] | type[Federation], *, name: str, slug: str | None):
    """A workspace or federation, named and with a unique slug (from the name unless given)."""
    kind = model._meta.verbose_name
    slug = slug or slugify(name)[:60]
    if not slug:
        raise InvalidInput(f"A {kind} needs a name with letters or digits.", field="name")
    try:
        with transaction.atomic():
            return model.objects.create(name=name, slug=slug)
    except IntegrityError:
        raise Conflict(f"A {kind} with slug {slug} exists already.", code="slug_taken", field="slug") from None


def workspace_rename(*, actor: Actor, workspace: Workspace, name: str) -> Workspace:
    authorize(actor=actor, action=Action.MANAGE_MEMBERS, workspace=workspace)
    workspace.name = name
    workspace.save(update_fields=["name"])
    return workspace


# --- memberships -------------------------------------------------------------------------


def membership_grant(*, actor: Actor, workspace: Workspace, user: User, role: str) -> Membership:
    """Give ``user`` exactly ``role`` in ``workspace`` (a new membership or a changed role)."""
    authorize(actor=actor, action=Action.MANAGE_MEMBERS, workspace=workspace)
    if role not in ROLE_PERMISSIONS:
        raise InvalidInput(f"Unknown role {role}; roles are {', '.join(Role.values)}.", field="role")
    if not user.is_active:
        raise Conflict(f"{user.get_username()} is deactivated.", code="principal_inactive", field="user")
    granted_by = None if isinstance(actor, SystemActor) else actor
    with transaction.atomic():
        membership, _ = Membership.objects.update_or_create(
            user=user,
            workspace=workspace,
            defaults={"role": role, "granted_by": granted_by, "granted_at": timezone.now()},
        )
        _set_permissions(user, workspace, ROLE_PERMISSIONS[role])
    return membership


def membership_revoke(*, actor: Actor, workspace: Workspace, user: User) -> None:
    authorize(actor=actor, action=Action.MANAGE_MEMBERS, workspace=workspace)
    with transaction.atomic():
        deleted, _ = Membership.objects.filter(user=user, workspace=workspace).delete()
        if not deleted:
            raise NotFound(f"{user.get_username()} is not a member of {workspace.slug}.", field="user")
        _set_permissions(user, workspace, ())


def _set_permissions(user: User, workspace: Workspace, keep: tuple[str, ...]) -> None:
    for codename in ALL_PERMISSIONS:
        if codename in keep:
            assign_perm(f"rbac.{codename}", user, workspace)
        else:
            remove_perm(f"rbac.{codename}", user, workspace)


# --- federations -------------------------------------------------------------------------


def federation_create(*, actor: Actor, name: str, slug: str | None = None) -> Federation:
    _require_global_admin(actor, "create federations")
    return _create_named(Federation, name=name, slug=slug)


def federation_attach(*, actor: Actor, federation: Federation, workspace: Workspace) -> FederationMember:
    """From now on, writes in ``workspace`` deduplicate and are shared across the federation."""
    authorize(actor=actor, action=Action.FEDERATE, workspace=workspace)
    try:
        with transaction.atomic():
            return FederationMember.objects.create(federation=federation, workspace=workspace)
    except IntegrityError:
        raise Conflict(
            f"{workspace.slug} is in a federation already; detach it first.", code="already_federated"
        ) from None


def federation_detach(*, actor: Actor, federation: Federation, workspace: Workspace) -> None:
    """Prospective: memories written while attached keep their visibility; only future writes change."""
    authorize(actor=actor, action=Action.FEDERATE, workspace=workspace)
    closed = (
        FederationMember.objects.current()
        .filter(federation=federation, workspace=workspace)
        .update(left_at=timezone.now())
    )
    if not closed:
        raise NotFound(f"{workspace.slug} is not in {federation.slug}.", field="group_id")
    replicas.access_changed()  # an update sends no signal


# --- admission and registry --------------------------------------------------------------


@dataclass(frozen=True)
class Enrollment:
    workspace: str
    role: str | None
    enrolled_at: Any
    admitted_now: bool


def enroll_client(*, actor: User) -> Enrollment:
    """Admit ``actor`` as worker in onboarding, once. Later calls change nothing, so a
    role an admin granted since (or a revocation) stands."""
    onboarding = Workspace.objects.get(slug=Workspace.ONBOARDING)
    with transaction.atomic():
        principal, _ = Principal.objects.select_for_update().get_or_create(
            user=actor, defaults={"kind": Principal.Kind.AGENT}
        )
        admitted_now = principal.enrolled_at is None
        if admitted_now:
            principal.enrolled_at = timezone.now()
            principal.save(update_fields=["enrolled_at"])
            if not Membership.objects.filter(user=actor, workspace=onboarding).exists():
                membership_grant(actor=SYSTEM, workspace=onboarding, user=actor, role=Role.WORKER)
        membership = Membership.objects.filter(user=actor, workspace=onboarding).first()
    return Enrollment(
        workspace=onboarding.slug,
        role=membership.role if membership else None,
        enrolled_at=principal.enrolled_at,
        admitted_now=admitted_now,
    )


@dataclass(frozen=True)
class BootstrapCredentials:
    username: str
    password: str
    token: str


def admin_bootstrap(*, username: str = "admin") -> BootstrapCredentials | None:
    """Create the first global admin with a generated password and a token.

    Returns the credentials to print once, or None when a global admin exists.
    """
    with transaction.atomic():
        if Principal.objects.select_for_update().filter(is_global_admin=True).exists():
            return None
        password = secrets.token_urlsafe(18)
        principal = principal_create(
            username=username, kind=Principal.Kind.HUMAN, is_global_admin=True, password=password
        )
        issued = token_issue(user=principal.user, name="bootstrap")
    return BootstrapCredentials(username=username, password=password, token=issued.raw)

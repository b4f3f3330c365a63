"""Changes to who may do what, made in the room. Each calls the service that owns the rule
(``rbac.services``, ``memory.services.workspaces``) and writes its audit line in the same
transaction, so a refused change leaves no line. A raw token is never written to the trail:
a token is known there by its name and public prefix."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from memory.services import workspaces as workspace_services
from rbac import services as rbac
from rbac.models import ApiToken, Federation, Membership, Principal, Workspace
from stewardship.services import audit_record


def _principal(user: User) -> str:
    return f"principal:{user.get_username()}"


def _membership(user: User, workspace: Workspace) -> str:
    return f"principal:{user.get_username()} in workspace:{workspace.slug}"


def principal_create(
    *, actor: User, username: str, kind: str, global_admin: bool, password: str | None, token_name: str | None
) -> tuple[Principal, rbac.IssuedToken | None]:
    """A new principal and, when ``token_name`` is given, its first token (shown once)."""
    with transaction.atomic():
        principal = rbac.principal_create(username=username, kind=kind, is_global_admin=global_admin, password=password)
        after = {"kind": kind, "global_admin": global_admin, "active": True, "password_set": password is not None}
        audit_record(actor=actor, action="principal.create", target=_principal(principal.user), after=after)
        issued = token_issue(actor=actor, user=principal.user, name=token_name) if token_name else None
    return principal, issued


def principal_deactivate(*, actor: User, user: User) -> None:
    with transaction.atomic():
        before = {"active": user.is_active}
        rbac.principal_deactivate(actor=actor, user=user)
        audit_record(
            actor=actor, action="principal.deactivate", target=_principal(user), before=before, after={"active": False}
        )


def principal_reactivate(*, actor: User, user: User) -> None:
    with transaction.atomic():
        before = {"active": user.is_active}
        rbac.principal_reactivate(actor=actor, user=user)
        audit_record(
            actor=actor, action="principal.reactivate", target=_principal(user), before=before, after={"active": True}
        )


def principal_set_global_admin(*, actor: User, user: User, is_admin: bool) -> None:
    with transaction.atomic():
        before = {"global_admin": Principal.objects.filter(user=user, is_global_admin=True).exists()}
        rbac.principal_set_global_admin(actor=actor, user=user, is_admin=is_admin)
        after = {"global_admin": is_admin}
        audit_record(actor=actor, action="principal.global_admin", target=_principal(user), before=before, after=after)


def token_issue(*, actor: User, user: User, name: str) -> rbac.IssuedToken:
    with transaction.atomic():
        issued = rbac.token_issue(user=user, name=name)
        after = {"name": name, "prefix": issued.token.prefix}
        audit_record(actor=actor, action="token.issue", target=_principal(user), after=after)
    return issued


def token_revoke(*, actor: User, token: ApiToken) -> ApiToken:
    """Revoke ``token``; one already revoked stays as it was, and no line is written for it."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().select_related("user").get(pk=token.pk)
        if token.revoked_at is not None:
            return token
        rbac.token_revoke(token=token)
        token.refresh_from_db(fields=["revoked_at"])
        audit_record(
            actor=actor,
            action="token.revoke",
            target=_principal(token.user),
            before={"name": token.name, "prefix": token.prefix, "revoked_at": None},
            after={"name": token.name, "prefix": token.prefix, "revoked_at": token.revoked_at.isoformat()},
        )
    return token


def tokens_revoke_all(*, actor: User, user: User) -> int:
    """Revoke every active token of ``user`` at once (a leaked laptop, a departed agent): one
    audit line naming them; with none active, nothing is written. Returns how many."""
    with transaction.atomic():
        active = list(ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True).order_by("pk"))
        if not active:
            return 0
        for token in active:
            rbac.token_revoke(token=token)
        names = [{"name": token.name, "prefix": token.prefix} for token in active]
        audit_record(
            actor=actor,
            action="token.revoke_all",
            target=_principal(user),
            before={"active": names},
            after={"active": [], "revoked": len(active)},
        )
    return len(active)


def membership_grant(*, actor: User, workspace: Workspace, user: User, role: str) -> None:
    """Give ``user`` exactly ``role`` in ``workspace``: a new membership, or a changed role."""
    with transaction.atomic():
        before = _role_held(user, workspace)
        rbac.membership_grant(actor=actor, workspace=workspace, user=user, role=role)
        target = _membership(user, workspace)
        audit_record(actor=actor, action="membership.grant", target=target, before=before, after={"role": role})


def membership_revoke(*, actor: User, workspace: Workspace, user: User) -> None:
    with transaction.atomic():
        before = _role_held(user, workspace)
        rbac.membership_revoke(actor=actor, workspace=workspace, user=user)
        audit_record(actor=actor, action="membership.revoke", target=_membership(user, workspace), before=before)


def _role_held(user: User, workspace: Workspace) -> dict[str, Any] | None:
    """The role before a change, its row locked so that a racing change cannot slip in between."""
    held = Membership.objects.select_for_update().filter(user=user, workspace=workspace)
    role = held.values_list("role", flat=True).first()
    return None if role is None else {"role": role}


def workspace_create(*, actor: User, name: str, slug: str | None) -> Workspace:
    with transaction.atomic():
        workspace = rbac.workspace_create(actor=actor, name=name, slug=slug)
        after = {"name": workspace.name, "slug": workspace.slug}
        audit_record(actor=actor, action="workspace.create", target=f"workspace:{workspace.slug}", after=after)
    return workspace


def workspace_rename(*, actor: User, workspace: Workspace, name: str) -> Workspace:
    """A new display name; the same name again changes nothing and writes no line."""
    with transaction.atomic():
        workspace = Workspace.objects.select_for_update().get(pk=workspace.pk)
        before = {"name": workspace.name}
        if workspace.name == name:
            return workspace
        workspace = rbac.workspace_rename(actor=actor, workspace=workspace, name=name)
        audit_record(
            actor=actor,
            action="workspace.rename",
            target=f"workspace:{workspace.slug}",
            before=before,
            after={"name": name},
        )
    return workspace


def workspace_delete(*, actor: User, workspace: Workspace) -> None:
    with transaction.atomic():
        before = {"name": workspace.name, "slug": workspace.slug, "members": workspace.memberships.count()}
        workspace_services.workspace_delete(actor=actor, workspace=workspace)
        audit_record(actor=actor, action="workspace.delete", target=f"workspace:{before['slug']}", before=before)


def federation_create(*, actor: User, name: str, slug: str | None) -> Federation:
    with transaction.atomic():
        federation = rbac.federation_create(actor=actor, name=name, slug=slug)
        after = {"name": federation.name, "slug": federation.slug}
        audit_record(actor=actor, action="federation.create", target=f"federation:{federation.slug}", after=after)
    return federation


def federation_attach(*, actor: User, federation: Federation, workspace: Workspace) -> None:
    with transaction.atomic():
        rbac.federation_attach(actor=actor, federation=federation, workspace=workspace)
        audit_record(
            actor=actor,
            action="federation.attach",
            target=f"workspace:{workspace.slug}",
            before={"federation": None},
            after={"federation": federation.slug},
        )


def federation_detach(*, actor: User, federation: Federation, workspace: Workspace) -> None:
    with transaction.atomic():
        rbac.federation_detach(actor=actor, federation=federation, workspace=workspace)
        audit_record(
            actor=actor,
            action="federation.detach",
            target=f"workspace:{workspace.slug}",
            before={"federation": federation.slug},
            after={"federation": None},
        )

"""The one place other apps ask access questions.

Deny by default. A global admin may do everything except federate or delete a reserved
workspace. Everyone else acts through the guardian object permissions their role in a
workspace grants. An actor who cannot read a workspace gets ``not_found`` for it, the
same answer as for a workspace that does not exist, so names never leak.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from guardian.models import UserObjectPermission
from guardian.shortcuts import get_objects_for_user, get_perms

from helixsite.db.compiled import CompiledQuery
from helixsite.db.replicas import prepared_reader
from helixsite.errors import ApplicationError, Conflict, Forbidden, InvalidInput, NotFound
from rbac.actors import SYSTEM, Actor, SystemActor
from rbac.models import (
    Federation,
    FederationMember,
    MemoryProvenance,
    Role,
    Workspace,
)


class Action(enum.StrEnum):
    READ = "read"
    WRITE = "write"
    MODERATE = "moderate"
    MANAGE_MEMBERS = "manage_members"
    FEDERATE = "federate"
    DELETE_WORKSPACE = "delete_workspace"


ROLE_PERMISSIONS: dict[str, tuple[str, ...]] = {
    Role.GROUPADMIN: ("read_workspace", "write_workspace", "manage_workspace"),
    Role.MODERATOR: ("read_workspace", "write_workspace", "moderate_workspace"),
    Role.WORKER: ("read_workspace", "write_workspace"),
    Role.VIEWER: ("read_workspace",),
}
ALL_PERMISSIONS = ("read_workspace", "write_workspace", "moderate_workspace", "manage_workspace")
_ACTION_PERMISSION = {
    Action.READ: "read_workspace",
    Action.WRITE: "write_workspace",
    Action.MODERATE: "moderate_workspace",
    Action.MANAGE_MEMBERS: "manage_workspace",
}
_ADMIN_ONLY = {Action.FEDERATE, Action.DELETE_WORKSPACE}


def permission_needed(action: Action) -> str | None:
    """The workspace permission a role must carry for ``action``; None for what only global admins do."""
    return _ACTION_PERMISSION.get(action)


def is_active(actor: Actor) -> bool:
    return actor is SYSTEM or bool(getattr(actor, "is_authenticated", False) and getattr(actor, "is_active", False))


def is_global_admin(actor: Actor) -> bool:
    if actor is SYSTEM:
        return True
    principal = getattr(actor, "principal", None) if is_active(actor) else None
    return bool(principal and principal.is_global_admin)


def workspaces_for(actor: Actor, action: Action) -> QuerySet[Workspace]:
    """Workspaces in which ``actor`` may perform ``action``."""
    if not is_active(actor):
        return Workspace.objects.none()
    if is_global_admin(actor):
        return Workspace.objects.all()
    if action in _ADMIN_ONLY:
        return Workspace.objects.none()
    return get_objects_for_user(
        actor, f"rbac.{_ACTION_PERMISSION[action]}", klass=Workspace, with_superuser=False, accept_global_perms=False
    )


def readable_workspace_ids(actor: Actor) -> list[int]:
    """On every search, so one query: roles are granted to users, never to groups."""
    if not is_active(actor):
        return []
    if isinstance(actor, SystemActor) or is_global_admin(actor):
        return list(Workspace.objects.values_list("id", flat=True))
    # By the permission's natural key, not a cached content-type id: ids change when a
    # database is flushed or restored under a running server. Written out once rather than built
    # by the ORM on every search.
    with prepared_reader() as cursor:  # this call's read replica, as the ORM's router would pick
        cursor.execute(_READABLE.sql, _READABLE.params(actor.pk))
        return [int(pk) for (pk,) in cursor]


_READABLE = CompiledQuery(
    lambda user_id: UserObjectPermission.objects.filter(
        user_id=user_id, permission__codename="read_workspace", permission__content_type__app_label="rbac"
    ).values_list("object_pk"),
    placeholder=-1,  # no user's id
)


class Rule(enum.StrEnum):
    """The rule that decides an access question, in the order the policy asks them."""

    INACTIVE = "inactive"
    RESERVED_WORKSPACE = "reserved_workspace"
    GLOBAL_ADMIN = "global_admin"
    CANNOT_READ = "cannot_read"
    ADMIN_ONLY = "admin_only"
    PERMISSION_MISSING = "permission_missing"
    PERMISSION_GRANTED = "permission_granted"


@dataclass(frozen=True)
class Decision:
    """May ``action`` happen in a workspace: the rule that decided, the workspace permission the
    action needs when a role decides, and the error a refusal raises (None when allowed)."""

    rule: Rule
    permission: str | None = None
    refusal: ApplicationError | None = None

    @property
    def allowed(self) -> bool:
        return self.refusal is None


def access_decide(*, actor: Actor, action: Action, workspace: Workspace) -> Decision:
    """The policy itself; ``authorize`` raises what this decides, so an explanation of a decision
    can never differ from the decision."""
    details = {"action": str(action)}
    if not is_active(actor):
        return Decision(Rule.INACTIVE, refusal=Forbidden("This principal is deactivated.", details=details))
    if is_global_admin(actor):
        if action in _ADMIN_ONLY and workspace.reserved:
            message = f"The reserved workspace {workspace.slug} cannot be federated or deleted."
            return Decision(
                Rule.RESERVED_WORKSPACE, refusal=Conflict(message, code="reserved_workspace", details=details)
            )
        return Decision(Rule.GLOBAL_ADMIN)
    granted = set(get_perms(actor, workspace))
    if "read_workspace" not in granted:
        refusal = NotFound("Workspace not found.", field="group_id")
        return Decision(Rule.CANNOT_READ, permission="read_workspace", refusal=refusal)
    if action in _ADMIN_ONLY:
        return Decision(Rule.ADMIN_ONLY, refusal=_forbidden(action, workspace))
    permission = _ACTION_PERMISSION[action]
    if permission not in granted:
        return Decision(Rule.PERMISSION_MISSING, permission=permission, refusal=_forbidden(action, workspace))
    return Decision(Rule.PERMISSION_GRANTED, permission=permission)


def _forbidden(action: Action, workspace: Workspace) -> Forbidden:
    return Forbidden(
        f"You may not {action.replace('_', ' ')} in workspace {workspace.slug}.", details={"action": str(action)}
    )


def authorize(*, actor: Actor, action: Action, workspace: Workspace) -> None:
    """Raise NotFound (cannot even read it), Forbidden or Conflict (reserved); return when allowed."""
    refusal = access_decide(actor=actor, action=action, workspace=workspace).refusal
    if refusal is not None:
        raise refusal


def may_change(*, actor: Actor, author_id: int | None, visible_in: Iterable[int]) -> bool:
    """Whether ``actor`` may correct or forget something written by ``author_id`` and visible in
    ``visible_in``: a global admin, its author with write access, or a moderator of a workspace
    that sees it."""
    if is_global_admin(actor):
        return True
    action = Action.WRITE if author_id == getattr(actor, "pk", None) else Action.MODERATE
    return any(
        access_decide(actor=actor, action=action, workspace=workspace).refusal is None
        for workspace in Workspace.objects.filter(pk__in=list(visible_in))
    )


def workspace_get(*, actor: Actor, ref: str | int, action: Action = Action.READ) -> Workspace:
    """The access gate for a workspace named by id or slug."""
    workspace = _workspace_lookup(ref)
    if workspace is None:
        raise NotFound("Workspace not found.", field="group_id")
    authorize(actor=actor, action=action, workspace=workspace)
    return workspace


def federation_get(*, actor: Actor, ref: str | int) -> Federation:
    """Federations are managed by global admins; to anyone else none exists."""
    pk = _row_id(ref)
    lookup = Q(slug=str(ref)) | (Q(pk=pk) if pk is not None else Q(pk__in=[]))
    federation = Federation.objects.filter(lookup).first() if is_global_admin(actor) else None
    if federation is None:
        raise NotFound("Federation not found.", field="federation")
    return federation


@dataclass(frozen=True)
class WriteDomain:
    """Where a write lands: its dedup scope and the workspaces that will see it."""

    workspace: Workspace
    scope: str
    federation: Federation | None
    visible_workspace_ids: tuple[int, ...]

    @property
    def visible_in(self) -> list[int]:
        """What a memory written here stores as ``Memory.visible_in``."""
        return sorted(self.visible_workspace_ids)


def write_domain_resolve(*, actor: Actor, group_id: str | int | None) -> WriteDomain:
    if group_id in (None, ""):
        workspace = _only_writable_workspace(actor)
    else:
        workspace = workspace_get(actor=actor, ref=group_id, action=Action.WRITE)
    if workspace.slug == Workspace.DEFAULT:
        return WriteDomain(workspace, "default", None, (workspace.id,))
    membership = FederationMember.objects.current().filter(workspace=workspace).select_related("federation").first()
    if membership is None:
        return WriteDomain(workspace, f"rbac:group:{workspace.id}", None, (workspace.id,))
    federation = membership.federation
    members = FederationMember.objects.current().filter(federation=federation).values_list("workspace_id", flat=True)
    return WriteDomain(workspace, f"rbac:dedup:{federation.id}", federation, tuple(sorted(members)))


def provenance_record(*, memory_ids: Iterable[Any], domain: WriteDomain) -> None:
    """Record that new memories were written through their domain's federation, if any.

    Their visibility is part of the row itself (``visible_in = domain.visible_in``), set when
    it is built, so a memory is never stored without it.
    """
    if domain.federation is not None:
        MemoryProvenance.objects.bulk_create(
            [MemoryProvenance(memory_id=m, federation=domain.federation) for m in memory_ids], ignore_conflicts=True
        )


def visible_memories_filter(actor: Actor) -> Q:
    """A filter for Memory querysets: what ``actor`` may see. Global admins see everything."""
    if is_global_admin(actor):
        return Q()
    return visible_in_any(readable_workspace_ids(actor))


def visible_in_any(workspace_ids: Iterable[int]) -> Q:
    """A filter for memories, documents and chunks: seen through at least one of ``workspace_ids``.
    The ORM's one visibility clause; ``memory.search.scope`` holds the raw statements' one."""
    return Q(visible_in__overlap=list(workspace_ids))


def _only_writable_workspace(actor: Actor) -> Workspace:
    writable: Sequence[Workspace] = list(workspaces_for(actor, Action.WRITE).order_by("slug")[:50])
    if len(writable) == 1:
        return writable[0]
    if not writable:
        raise Forbidden("You cannot write to any workspace.", details={"action": str(Action.WRITE)})
    raise InvalidInput(
        "group_id is required: you can write to more than one workspace.",
        code="ambiguous_workspace",
        field="group_id",
        details={"workspaces": [w.slug for w in writable]},
    )


def _workspace_lookup(ref: str | int) -> Workspace | None:
    pk = _row_id(ref)
    if pk is not None:
        return Workspace.objects.filter(pk=pk).first()
    return Workspace.objects.filter(slug=str(ref).strip()).first()


def _row_id(ref: str | int) -> int | None:
    """A reference that is a row id: ASCII digits within a bigint (``"²"`` is a digit to
    ``str.isdigit`` and not to ``int``; a longer number names no row)."""
    text = str(ref).strip()
    if not (text.isascii() and text.isdecimal()) or len(text) > 18:
        return None
    return int(text)

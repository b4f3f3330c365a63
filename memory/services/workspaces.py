"""Workspaces as the memory domain sees them: one that still holds memories is not deleted."""

from __future__ import annotations

from django.db import transaction

from helixsite.errors import Conflict
from memory.models import Memory
from rbac.actors import Actor
from rbac.models import FederationMember, Workspace
from rbac.policy import Action, authorize


def workspace_delete(*, actor: Actor, workspace: Workspace) -> None:
    """Delete an empty workspace (global admins). One in a federation, or still holding memories,
    is refused: its memories would become invisible to everyone, and nothing is destroyed silently."""
    authorize(actor=actor, action=Action.DELETE_WORKSPACE, workspace=workspace)
    with transaction.atomic():
        if FederationMember.objects.current().filter(workspace=workspace).exists():
            raise Conflict("Detach the workspace from its federation first.", code="workspace_federated")
        if Memory.objects.filter(visible_in__contains=[workspace.pk]).exists():
            raise Conflict("The workspace still holds memories.", code="workspace_not_empty")
        workspace.delete()

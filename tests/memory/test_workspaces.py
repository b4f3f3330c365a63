"""Deleting a workspace: refused while it holds memories or sits in a federation."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from memory.services.workspaces import workspace_delete
from rbac.models import Role, Workspace
from rbac.policy import SYSTEM, write_domain_resolve
from rbac.services import federation_attach, federation_create
from tests.factories import grant, make_memory, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def code_of(call) -> str:
    with pytest.raises(ApplicationError) as refused:
        call()
    return refused.value.code


def test_a_workspace_holding_memories_is_not_deleted():
    team = make_workspace("team")
    ann = make_principal("ann")
    grant(ann, team, Role.WORKER)
    make_memory(author=ann, domain=write_domain_resolve(actor=ann.user, group_id="team"), content="keep me")

    assert code_of(lambda: workspace_delete(actor=SYSTEM, workspace=team)) == "workspace_not_empty"
    assert Workspace.objects.filter(slug="team").exists()


def test_a_federated_workspace_is_not_deleted_and_an_empty_one_is():
    federated, empty = make_workspace("federated"), make_workspace("empty")
    federation = federation_create(actor=SYSTEM, name="Shared", slug="shared")
    federation_attach(actor=SYSTEM, federation=federation, workspace=federated)

    assert code_of(lambda: workspace_delete(actor=SYSTEM, workspace=federated)) == "workspace_federated"
    workspace_delete(actor=SYSTEM, workspace=empty)
    assert sorted(Workspace.objects.filter(slug__in=["federated", "empty"]).values_list("slug", flat=True)) == [
        "federated"
    ]

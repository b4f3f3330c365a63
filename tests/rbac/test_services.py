"""Principal and workspace services: the last-admin guard, enrollment, workspace lifecycle."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from guardian.shortcuts import get_perms

from helixsite.errors import ApplicationError
from rbac.models import ApiToken, Membership, Principal, Role, Workspace
from rbac.policy import SYSTEM
from rbac.services import (
    enroll_client,
    membership_grant,
    membership_revoke,
    principal_create,
    principal_deactivate,
    principal_reactivate,
    principal_set_global_admin,
    workspace_rename,
)
from tests.factories import grant, make_agent_with_token, make_principal, make_workspace
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def code_of(call) -> str:
    with pytest.raises(ApplicationError) as refused:
        call()
    return refused.value.code


def test_the_last_active_global_admin_cannot_be_deactivated_or_demoted():
    root = make_principal("root", admin=True)

    assert code_of(lambda: principal_deactivate(actor=SYSTEM, user=root.user)) == "last_admin"
    assert code_of(lambda: principal_set_global_admin(actor=SYSTEM, user=root.user, is_admin=False)) == "last_admin"

    second = make_principal("second", admin=True)
    principal_set_global_admin(actor=root.user, user=root.user, is_admin=False)
    root.user.refresh_from_db()
    assert root.user.is_superuser is False, "Django admin access follows the global role"
    assert code_of(lambda: principal_deactivate(actor=second.user, user=second.user)) == "last_admin"


def test_only_global_admins_change_global_roles():
    make_principal("root", admin=True)
    worker = make_principal("worker")

    assert (
        code_of(lambda: principal_set_global_admin(actor=worker.user, user=worker.user, is_admin=True)) == "forbidden"
    )


def test_only_global_admins_reactivate_and_the_unrevoked_tokens_come_back():
    root = make_principal("root", admin=True)
    _, issued = make_agent_with_token("scout")
    scout = issued.token.user
    principal_deactivate(actor=root.user, user=scout)
    assert not ApiToken.objects.active().exists()

    assert code_of(lambda: principal_reactivate(actor=make_principal("worker").user, user=scout)) == "forbidden"
    principal_reactivate(actor=root.user, user=scout)

    scout.refresh_from_db()
    assert scout.is_active
    assert list(ApiToken.objects.active()) == [issued.token]


def test_roles_are_guardian_object_permissions_and_change_in_place():
    team = make_workspace("team")
    ann = make_principal("ann")

    grant(ann, team, Role.MODERATOR)
    assert sorted(get_perms(ann.user, team)) == ["moderate_workspace", "read_workspace", "write_workspace"]

    grant(ann, team, Role.VIEWER)
    assert get_perms(ann.user, team) == ["read_workspace"]
    assert Membership.objects.get(user=ann.user).role == Role.VIEWER

    membership_revoke(actor=SYSTEM, workspace=team, user=ann.user)
    assert get_perms(ann.user, team) == []


def test_a_groupadmin_manages_only_its_own_workspace():
    mine, theirs = make_workspace("mine"), make_workspace("theirs")
    lead, ann = make_principal("lead"), make_principal("ann")
    grant(lead, mine, Role.GROUPADMIN)

    membership_grant(actor=lead.user, workspace=mine, user=ann.user, role=Role.WORKER)
    workspace_rename(actor=lead.user, workspace=mine, name="Mine, renamed")
    assert (
        code_of(lambda: membership_grant(actor=lead.user, workspace=theirs, user=ann.user, role=Role.WORKER))
        == "not_found"
    )
    assert code_of(lambda: membership_grant(actor=lead.user, workspace=mine, user=ann.user, role="owner")) == "invalid"


def test_enroll_client_is_idempotent_and_keeps_a_role_granted_in_between():
    agent = make_principal("newbie")

    first = enroll_client(actor=agent.user)
    assert (first.workspace, first.role, first.admitted_now) == ("onboarding", Role.WORKER, True)

    again = enroll_client(actor=agent.user)
    assert (again.role, again.admitted_now, again.enrolled_at) == (Role.WORKER, False, first.enrolled_at)

    grant(agent, Workspace.objects.get(slug="onboarding"), Role.MODERATOR)
    assert enroll_client(actor=agent.user).role == Role.MODERATOR
    assert Membership.objects.filter(user=agent.user).count() == 1


def test_enroll_client_does_not_readmit_after_a_revocation():
    agent = make_principal("newbie")
    enroll_client(actor=agent.user)
    membership_revoke(actor=SYSTEM, workspace=Workspace.objects.get(slug="onboarding"), user=agent.user)

    assert enroll_client(actor=agent.user).role is None


@pytest.mark.django_db(transaction=True)
def test_a_name_taken_by_a_concurrent_call_after_the_check_is_a_conflict_not_a_500(monkeypatch):
    """Two admins create "scout" at once: both pass the name check, one insert wins; the other
    is told the name is taken, and nothing half-made is left."""
    manager = type(get_user_model().objects)
    create_user = manager.create_user

    def the_other_call_wins_first(self, username, *args, **kwargs):
        monkeypatch.setattr(manager, "create_user", create_user)
        (winner,) = run_together([lambda: principal_create(username=username, kind="agent")])
        assert isinstance(winner, Principal)
        return create_user(self, username, *args, **kwargs)

    monkeypatch.setattr(manager, "create_user", the_other_call_wins_first)

    with pytest.raises(ApplicationError) as refused:
        principal_create(username="scout", kind="human")

    assert (refused.value.code, refused.value.field, refused.value.status) == ("name_taken", "username", 409)
    assert list(Principal.objects.values_list("user__username", "kind")) == [("scout", "agent")]

"""Roles in workspaces, granted and revoked from a principal's page or a workspace's page: the
change is what the principal's own searches see next, and each is audited role before → after."""

from __future__ import annotations

import re

import pytest

from rbac.models import Membership, Role
from rbac.policy import write_domain_resolve
from tests.factories import bearer_client, grant, make_agent_with_token, make_memory, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(db):
    """A workspace holding one memory about bob, written by its worker."""
    workspace = make_workspace("team")
    author = make_principal("author")
    grant(author, workspace, Role.WORKER)
    domain = write_domain_resolve(actor=author.user, group_id="team")
    make_memory(author=author, domain=domain, user_id="bob", content="Bob keeps bees in Lisbon.", embed=True)
    return workspace


def _found(api, name: str) -> list[str]:
    answer = api.post("/api/v1/search_memory", {"actor_id": name, "user_id": "bob", "query": "bees"}, format="json")
    assert answer.status_code == 200, answer.content
    return [result["content"] for result in answer.json()["results"]]


def test_granting_a_role_opens_the_workspace_to_the_agents_searches_and_revoking_closes_it(steward, team):
    _, issued = make_agent_with_token("scout")
    api = bearer_client(issued.raw)
    assert _found(api, "scout") == []

    granted = steward.post("/steward/people/scout/roles/", {"workspace": "team", "role": "viewer"}, **HTMX)

    assert granted.status_code == 200 and granted["HX-Trigger"] == "role-changed"
    assert "scout is viewer in team." in granted.content.decode()
    assert _found(api, "scout") == ["Bob keeps bees in Lisbon."]
    revoked = steward.post("/steward/people/scout/roles/team/revoke/", **HTMX)
    assert "scout has no role in team any more." in revoked.content.decode()
    assert _found(api, "scout") == []
    assert [(line["target"], line["before"], line["after"]) for line in audit_lines("membership.grant")] == [
        ("principal:scout in workspace:team", None, {"role": "viewer"})
    ]
    assert [(line["before"], line["after"]) for line in audit_lines("membership.revoke")] == [
        ({"role": "viewer"}, None)
    ]


def test_changing_a_role_on_the_workspace_page_is_audited_before_and_after(steward, team):
    scout = make_principal("scout")
    grant(scout, team, Role.VIEWER)

    answer = steward.post("/steward/workspaces/team/members/", {"principal": "scout", "role": "moderator"}, **HTMX)

    assert answer.status_code == 200
    assert "scout is moderator in team." in answer.content.decode()
    row = re.search(r'<tr data-principal="scout">.*?</tr>', answer.content.decode(), re.S).group(0)
    assert '<option value="moderator" selected>' in row
    assert Membership.objects.get(user=scout.user, workspace=team).role == Role.MODERATOR
    assert [(line["before"], line["after"]) for line in audit_lines("membership.grant")] == [
        ({"role": "viewer"}, {"role": "moderator"})
    ]


def test_revoking_a_member_on_the_workspace_page(steward, team):
    scout = make_principal("scout")
    grant(scout, team, Role.WORKER)

    answer = steward.post("/steward/workspaces/team/members/scout/revoke/", **HTMX)

    assert answer.status_code == 200 and 'data-principal="scout"' not in answer.content.decode()
    assert not Membership.objects.filter(user=scout.user).exists()
    assert [line["before"] for line in audit_lines("membership.revoke")] == [{"role": "worker"}]


@pytest.mark.parametrize(
    ("path", "form", "status", "code", "field"),
    [
        ("/steward/people/scout/roles/", {"workspace": "nowhere", "role": "viewer"}, 400, "not_found", "workspace"),
        ("/steward/people/scout/roles/", {"workspace": "team", "role": "owner"}, 400, "invalid_choice", "role"),
        ("/steward/workspaces/team/members/", {"principal": "nobody", "role": "viewer"}, 400, "not_found", "principal"),
        ("/steward/people/sleeper/roles/", {"workspace": "team", "role": "viewer"}, 409, "principal_inactive", "user"),
        ("/steward/people/scout/roles/team/revoke/", {}, 404, "not_found", "user"),
    ],
    ids=["no-workspace", "no-role", "no-principal", "deactivated", "not-a-member"],
)
def test_a_refused_grant_or_revoke_is_explained_where_the_form_is(steward, team, path, form, status, code, field):
    make_principal("scout")
    sleeper = make_principal("sleeper")
    sleeper.user.is_active = False
    sleeper.user.save()

    answer = steward.post(path, form, **HTMX)

    assert answer.status_code == status
    assert (inline_error(answer)["code"], inline_error(answer)["field"]) == (code, field)
    assert audit_lines("membership.grant") == audit_lines("membership.revoke") == []


def test_a_plain_form_post_is_redirected_back_to_the_page(steward, team):
    make_principal("scout")

    answer = steward.post("/steward/people/scout/roles/", {"workspace": "team", "role": "worker"})

    assert (answer.status_code, answer["Location"]) == (302, "/steward/people/scout/")
    assert '<tr data-workspace="team">' in steward.get(answer["Location"]).content.decode()

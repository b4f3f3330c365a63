"""The access-control management commands, used the way an operator would."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from rbac.models import ApiToken, Membership

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_an_operator_sets_up_a_team_and_an_agent():
    assert "Created workspace research" in run("create_workspace", "Research")
    created = run("create_principal", "scout", "--agent")
    token = created.strip().splitlines()[-1].split(": ")[1]
    assert token.startswith("hxt_")
    assert "scout is now worker in research" in run("grant_role", "scout", "research", "worker")
    assert "scout is now viewer in research" in run("grant_role", "scout", "research", "viewer")

    listing = run("list_principals")
    assert "scout" in listing and "research: viewer" in listing

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/api/v1/whoami").json()["actor_id"] == "scout"

    second = run("issue_token", "scout", "--name", "laptop").strip().splitlines()[-1]
    prefix = second.split("_")[1]
    assert "Revoked 1 token(s)" in run("revoke_token", "scout", prefix)
    assert ApiToken.objects.active().filter(user__username="scout").count() == 1

    assert "no longer a member" in run("grant_role", "scout", "research", "--revoke")
    assert not Membership.objects.filter(user__username="scout").exists()


def test_federation_command_creates_attaches_and_lists():
    run("create_workspace", "Team A")
    run("create_workspace", "Team B")
    run("federation", "create", "Alliance")
    run("federation", "attach", "alliance", "team-a")
    run("federation", "attach", "alliance", "team-b")

    assert "alliance (id" in run("federation", "list") and "team-a, team-b" in run("federation", "list")
    assert "earlier memories keep their visibility" in run("federation", "detach", "alliance", "team-b")


def test_refusals_are_one_clear_line():
    run("federation", "create", "Alliance")
    run("create_principal", "ann")

    with pytest.raises(
        CommandError, match=r"The reserved workspace default cannot be federated or deleted. \(reserved_workspace\)"
    ):
        run("federation", "attach", "alliance", "default")
    with pytest.raises(CommandError, match="No principal named ghost"):
        run("grant_role", "ghost", "default", "worker")
    with pytest.raises(CommandError, match="Workspace not found"):
        run("grant_role", "ann", "nowhere", "worker")

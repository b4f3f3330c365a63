"""Who may do what, where. Every cell is one test; an allow that the table does not
list fails the test (zero unexpected allows).

Personas (their role is in `own`, workspace team-a):
  admin        global admin, no membership needed
  groupadmin   groupadmin      moderator   moderator      worker   worker
  viewer       viewer          outsider    worker in an unrelated workspace (team-c)
  deactivated  a worker in team-a whose principal was deactivated
  revoked      a groupadmin in team-a presenting a revoked token
Targets: own (team-a), other (team-b, no role there), default, onboarding (reserved).
Outcomes: ok | 403 forbidden | 404 not_found (the same answer as for a workspace that does
not exist) | 409 reserved_workspace | 401 unauthenticated (the token is refused).
"""

from __future__ import annotations

import pytest
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIRequestFactory

from helixsite.errors import ApplicationError
from memory.services.workspaces import workspace_delete
from rbac.authentication import ApiTokenAuthentication
from rbac.models import Role, Workspace
from rbac.policy import SYSTEM, Action, workspace_get
from rbac.services import (
    federation_attach,
    federation_create,
    membership_grant,
    principal_deactivate,
    token_revoke,
)
from tests.conftest import rows_for_the_module
from tests.factories import grant, make_agent_with_token, make_principal, make_workspace

MATRIX = """
persona      target      read  write  moderate  manage  federate  delete
admin        own         ok    ok     ok        ok      ok        ok
admin        other       ok    ok     ok        ok      ok        ok
admin        default     ok    ok     ok        ok      409       409
admin        onboarding  ok    ok     ok        ok      409       409
groupadmin   own         ok    ok     403       ok      403       403
groupadmin   other       404   404    404       404     404       404
groupadmin   default     404   404    404       404     404       404
groupadmin   onboarding  404   404    404       404     404       404
moderator    own         ok    ok     ok        403     403       403
moderator    other       404   404    404       404     404       404
moderator    default     404   404    404       404     404       404
moderator    onboarding  404   404    404       404     404       404
worker       own         ok    ok     403       403     403       403
worker       other       404   404    404       404     404       404
worker       default     404   404    404       404     404       404
worker       onboarding  404   404    404       404     404       404
viewer       own         ok    403    403       403     403       403
viewer       other       404   404    404       404     404       404
viewer       default     404   404    404       404     404       404
viewer       onboarding  404   404    404       404     404       404
outsider     own         404   404    404       404     404       404
outsider     other       404   404    404       404     404       404
outsider     default     404   404    404       404     404       404
outsider     onboarding  404   404    404       404     404       404
deactivated  own         401   401    401       401     401       401
deactivated  other       401   401    401       401     401       401
deactivated  default     401   401    401       401     401       401
deactivated  onboarding  401   401    401       401     401       401
revoked      own         401   401    401       401     401       401
revoked      other       401   401    401       401     401       401
revoked      default     401   401    401       401     401       401
revoked      onboarding  401   401    401       401     401       401
"""


def _cells() -> list[tuple[str, str, str, str]]:
    header, *rows = [line.split() for line in MATRIX.strip().splitlines()]
    actions = header[2:]
    return [(row[0], row[1], action, outcome) for row in rows for action, outcome in zip(actions, row[2:], strict=True)]


CELLS = _cells()
STATUS_CODES = {403: "forbidden", 404: "not_found", 409: "reserved_workspace"}
TARGETS = {"own": "team-a", "other": "team-b", "default": Workspace.DEFAULT, "onboarding": Workspace.ONBOARDING}


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker):
    """The personas, built once for the module's two hundred cells (``rows_for_the_module``)."""
    yield from rows_for_the_module(django_db_blocker, _build_world)


@pytest.fixture
def world(module_world, db):
    """The personas; what a cell changes (a grant, an attach, a delete) is rolled back after it."""
    return module_world


def _build_world() -> dict:
    team_a, team_b, team_c = (make_workspace(s) for s in ("team-a", "team-b", "team-c"))
    tokens = {}
    for persona, role in [
        ("admin", None),
        ("groupadmin", Role.GROUPADMIN),
        ("moderator", Role.MODERATOR),
        ("worker", Role.WORKER),
        ("viewer", Role.VIEWER),
        ("deactivated", Role.WORKER),
        ("revoked", Role.GROUPADMIN),
    ]:
        principal, issued = make_agent_with_token(persona, admin=role is None)
        if role:
            grant(principal, team_a, role)
        tokens[persona] = issued
    outsider, tokens["outsider"] = make_agent_with_token("outsider")
    grant(outsider, team_c, Role.WORKER)
    principal_deactivate(actor=SYSTEM, user=tokens["deactivated"].token.user)
    token_revoke(token=tokens["revoked"].token)
    return {
        "tokens": tokens,
        "newcomer": make_principal("newcomer").user,
        "federation": federation_create(actor=SYSTEM, name="alliance"),
    }


def authenticate(raw_token: str):
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    user, _ = ApiTokenAuthentication().authenticate(request)
    return user


def attempt(world, persona: str, target: str, action: str) -> str:
    try:
        actor = authenticate(world["tokens"][persona].raw)
    except AuthenticationFailed:
        return "401"
    slug = TARGETS[target]
    try:
        if action in ("read", "write", "moderate"):
            workspace_get(actor=actor, ref=slug, action=Action(action))
        elif action == "manage":
            workspace = workspace_get(actor=actor, ref=slug, action=Action.MANAGE_MEMBERS)
            membership_grant(actor=actor, workspace=workspace, user=world["newcomer"], role=Role.VIEWER)
        elif action == "federate":
            workspace = workspace_get(actor=actor, ref=slug, action=Action.FEDERATE)
            federation_attach(actor=actor, federation=world["federation"], workspace=workspace)
        elif action == "delete":
            workspace = workspace_get(actor=actor, ref=slug, action=Action.DELETE_WORKSPACE)
            workspace_delete(actor=actor, workspace=workspace)
        return "ok"
    except ApplicationError as error:
        # A status stands for its code; any other code shows up in the failure.
        return f"{error.status}" if STATUS_CODES.get(error.status) == error.code else f"{error.status} {error.code}"


@pytest.mark.parametrize(("persona", "target", "action", "expected"), CELLS, ids=["-".join(c[:3]) for c in CELLS])
def test_permission_matrix(world, persona, target, action, expected):
    assert attempt(world, persona, target, action) == expected


def test_the_matrix_covers_every_persona_action_and_target():
    assert len(CELLS) == 8 * 6 * 4
    assert {c[0] for c in CELLS} == {
        "admin",
        "groupadmin",
        "moderator",
        "worker",
        "viewer",
        "outsider",
        "deactivated",
        "revoked",
    }


def test_a_deactivated_user_object_is_refused_by_the_policy_itself(world):
    user = world["tokens"]["deactivated"].token.user

    with pytest.raises(ApplicationError) as refused:
        workspace_get(actor=user, ref="team-a", action=Action.READ)
    assert refused.value.code == "forbidden"

"""The access question answered in words: "may P do A in W?" and the rule that decided it.

The answer is the policy's own decision (``authorize`` raises what ``access_decide``
decides); each cell names the rule a reader of the answer is told."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from rbac.models import Role, Workspace
from rbac.policy import SYSTEM, Action, authorize
from rbac.selectors import access_explain
from rbac.services import principal_deactivate
from tests.conftest import rows_for_the_module
from tests.factories import grant, make_principal, make_workspace

pytestmark = pytest.mark.django_db

# GA global_admin · RW reserved_workspace · CR cannot_read · AO admin_only
# PG permission_granted · PM permission_missing · IN inactive
RULES = """
persona      target      read  write  moderate  manage_members  federate  delete_workspace
admin        own         GA    GA     GA        GA              GA        GA
admin        reserved    GA    GA     GA        GA              RW        RW
groupadmin   own         PG    PG     PM        PG              AO        AO
moderator    own         PG    PG     PG        PM              AO        AO
worker       own         PG    PG     PM        PM              AO        AO
viewer       own         PG    PM     PM        PM              AO        AO
worker       reserved    CR    CR     CR        CR              CR        CR
outsider     own         CR    CR     CR        CR              CR        CR
deactivated  own         IN    IN     IN        IN              IN        IN
"""
CODES = {
    "GA": "global_admin",
    "RW": "reserved_workspace",
    "CR": "cannot_read",
    "AO": "admin_only",
    "PG": "permission_granted",
    "PM": "permission_missing",
    "IN": "inactive",
}
TARGETS = {"own": "team", "reserved": Workspace.ONBOARDING}


def _cells() -> list[tuple[str, str, str, str]]:
    header, *rows = [line.split() for line in RULES.strip().splitlines()]
    return [
        (row[0], row[1], action, CODES[code]) for row in rows for action, code in zip(header[2:], row[2:], strict=True)
    ]


CELLS = _cells()


@pytest.fixture(scope="module")
def module_people(django_db_setup, django_db_blocker):
    """The personas, built once for the module's cells (each test only reads)."""
    yield from rows_for_the_module(django_db_blocker, _build_people)


@pytest.fixture
def people(module_people, db):
    return module_people


def _build_people() -> dict:
    team = make_workspace("team")
    users = {"admin": make_principal("admin", admin=True).user}
    for persona, role in [
        ("groupadmin", Role.GROUPADMIN),
        ("moderator", Role.MODERATOR),
        ("worker", Role.WORKER),
        ("viewer", Role.VIEWER),
        ("deactivated", Role.WORKER),
    ]:
        principal = make_principal(persona)
        grant(principal, team, role)
        users[persona] = principal.user
    users["outsider"] = make_principal("outsider").user
    principal_deactivate(actor=SYSTEM, user=users["deactivated"])
    users["deactivated"].refresh_from_db()
    return users


@pytest.mark.parametrize(("persona", "target", "action", "rule"), CELLS, ids=["-".join(c[:3]) for c in CELLS])
def test_the_answer_names_the_rule_and_agrees_with_authorize(people, persona, target, action, rule):
    user, workspace = people[persona], Workspace.objects.get(slug=TARGETS[target])

    answer = access_explain(user=user, action=Action(action), workspace=workspace)

    assert answer.decision.rule == rule
    try:
        authorize(actor=user, action=Action(action), workspace=workspace)
        refused = None
    except ApplicationError as error:
        refused = (error.status, error.code)
    assert answer.allowed is (refused is None)
    if refused:
        assert (answer.decision.refusal.status, answer.decision.refusal.code) == refused


def test_the_reason_names_the_role_and_the_permission(people):
    team = Workspace.objects.get(slug="team")

    granted = access_explain(user=people["moderator"], action=Action.MODERATE, workspace=team)
    missing = access_explain(user=people["viewer"], action=Action.WRITE, workspace=team)
    outside = access_explain(user=people["outsider"], action=Action.READ, workspace=team)

    assert (
        granted.reason == "moderator is moderator in team; that role carries moderate_workspace, which moderate needs."
    )
    assert missing.reason == "viewer is viewer in team; that role does not carry write_workspace, which write needs."
    assert outside.reason == "outsider has no role in team, so it cannot read team; to it the workspace does not exist."
    assert (granted.role, missing.role, outside.role) == (Role.MODERATOR, Role.VIEWER, None)

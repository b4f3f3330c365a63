"""The permission check page: "may P do A in W?" answered yes or no with the rule that decided.
Over every role (and a global admin, an outsider, a deactivated principal) × every action × an
ordinary and a reserved workspace, the page says what ``authorize`` does."""

from __future__ import annotations

import itertools
import re
from html import unescape

import pytest

from helixsite.errors import ApplicationError
from rbac.models import Role, Workspace
from rbac.policy import SYSTEM, Action, authorize
from rbac.services import principal_deactivate
from tests.factories import grant, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, inline_error

pytestmark = pytest.mark.django_db

PERSONAS = ["admin", *Role.values, "outsider", "deactivated"]


@pytest.fixture
def people(db):
    team = make_workspace("team")
    users = {"admin": make_principal("admin", admin=True).user, "outsider": make_principal("outsider").user}
    for role in Role.values:
        principal = make_principal(role)
        grant(principal, team, role)
        users[role] = principal.user
    deactivated = make_principal("deactivated")
    grant(deactivated, team, Role.GROUPADMIN)
    principal_deactivate(actor=SYSTEM, user=deactivated.user)
    deactivated.user.refresh_from_db()
    users["deactivated"] = deactivated.user
    return users


def _page_says(steward, name: str, action: str, slug: str) -> tuple[bool, str, str | None]:
    answer = steward.get("/steward/access/", {"principal": name, "action": action, "workspace": slug}, **HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    found = re.search(r'data-allowed="(yes|no)" data-rule="([a-z_]+)"', html)
    refused = re.search(r"A call is refused with <code>([a-z_]+)</code>", html)
    return found.group(1) == "yes", found.group(2), refused.group(1) if refused else None


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_page_answers_what_authorize_decides(steward, people, persona):
    user = people[persona]
    for action, slug in itertools.product(Action, ["team", Workspace.ONBOARDING]):
        workspace = Workspace.objects.get(slug=slug)
        try:
            authorize(actor=user, action=action, workspace=workspace)
            expected = (True, None)
        except ApplicationError as error:
            expected = (False, error.code)

        allowed, rule, refused_with = _page_says(steward, user.get_username(), action, slug)

        assert (allowed, refused_with) == expected, (persona, action, slug, rule)


def test_the_answer_names_the_rule_and_the_role(steward, people):
    _, rule, _ = _page_says(steward, "viewer", "write", "team")
    answer = steward.get("/steward/access/", {"principal": "viewer", "action": "write", "workspace": "team"})

    html = unescape(answer.content.decode())
    assert rule == "permission_missing"
    assert "No: viewer may not write in team." in html
    assert "viewer is viewer in team; that role does not carry write_workspace, which write needs." in html
    assert "<html" in html, "without htmx, the whole page with the answer in it"


@pytest.mark.parametrize(
    ("persona", "action", "slug", "rule"),
    [
        ("admin", "delete_workspace", "onboarding", "reserved_workspace"),
        ("admin", "federate", "team", "global_admin"),
        ("groupadmin", "federate", "team", "admin_only"),
        ("outsider", "read", "team", "cannot_read"),
        ("deactivated", "read", "team", "inactive"),
        ("moderator", "moderate", "team", "permission_granted"),
    ],
)
def test_each_rule_is_named(steward, people, persona, action, slug, rule):
    assert _page_says(steward, persona, action, slug)[1] == rule


def test_an_unknown_principal_or_workspace_is_explained_in_place(steward, people):
    nobody = steward.get("/steward/access/", {"principal": "nobody", "action": "read", "workspace": "team"}, **HTMX)
    nowhere = steward.get("/steward/access/", {"principal": "viewer", "action": "read", "workspace": "nope"}, **HTMX)

    assert (nobody.status_code, inline_error(nobody)["field"]) == (400, "principal")
    assert (nowhere.status_code, inline_error(nowhere)["field"]) == (400, "workspace")
    assert inline_error(nowhere)["message"] == "No workspace with the slug nope."


def test_a_link_that_only_names_the_principal_fills_in_the_form(steward, people):
    answer = steward.get("/steward/access/", {"principal": "viewer"})

    assert answer.status_code == 200
    assert 'id="check-principal" name="principal" required maxlength="150" value="viewer"' in answer.content.decode()
    assert inline_error(answer)["code"] is None

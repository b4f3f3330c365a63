"""Workspaces: creating one, the list with its filter and cursor, and deleting one, which the
existing guards refuse (reserved, federated, still holding memories) with their message in place."""

from __future__ import annotations

import re

import pytest

from rbac.models import Membership, Role, Workspace
from rbac.policy import SYSTEM, write_domain_resolve
from rbac.services import federation_attach, federation_create
from tests.factories import grant, make_memory, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db


def _listed(html: str) -> list[str]:
    return re.findall(r'<tr data-workspace="([^"]+)">', html)


def test_creating_a_workspace_makes_its_slug_from_the_name_and_is_audited(steward):
    answer = steward.post("/steward/workspaces/", {"name": "Team Red"}, **HTMX)

    assert answer.status_code == 200 and answer["HX-Trigger"] == "workspace-created"
    assert '<a href="/steward/workspaces/team-red/">team-red</a>' in answer.content.decode()
    assert Workspace.objects.filter(slug="team-red", name="Team Red").exists()
    assert audit_lines("workspace.create") == [
        {
            "actor": "ada",
            "target": "workspace:team-red",
            "before": None,
            "after": {"name": "Team Red", "slug": "team-red"},
        }
    ]


def test_a_taken_slug_is_explained_in_the_form(steward):
    make_workspace("team-red")

    answer = steward.post("/steward/workspaces/", {"name": "Team Red"}, **HTMX)

    assert answer.status_code == 409
    assert (inline_error(answer)["code"], inline_error(answer)["field"]) == ("slug_taken", "slug")
    assert 'value="Team Red"' in answer.content.decode(), "what was typed stays in the form"
    assert audit_lines("workspace.create") == []


def test_the_list_filters_and_shows_members_and_federation(steward):
    red, blue = make_workspace("team-red"), make_workspace("team-blue")
    grant(make_principal("scout"), red, Role.WORKER)
    federation_attach(actor=SYSTEM, federation=federation_create(actor=SYSTEM, name="Platform"), workspace=red)

    rows = steward.get("/steward/workspaces/", {"name": "team"}, **HTMX).content.decode()

    assert _listed(rows) == ["team-blue", "team-red"]
    red_row = re.search(r'<tr data-workspace="team-red">.*?</tr>', rows, re.S).group(0)
    assert "<td>1</td>" in red_row and "/steward/federations/platform/" in red_row
    assert blue.slug in rows and "<html" not in rows


def test_deleting_an_empty_workspace_leaves_for_the_list_and_is_audited(steward):
    team = make_workspace("team")
    grant(make_principal("scout"), team, Role.VIEWER)

    answer = steward.post("/steward/workspaces/team/delete/", **HTMX)

    assert answer["HX-Redirect"] == "/steward/workspaces/"
    assert not Workspace.objects.filter(slug="team").exists() and not Membership.objects.exists()
    assert audit_lines("workspace.delete") == [
        {
            "actor": "ada",
            "target": "workspace:team",
            "before": {"name": "Team", "slug": "team", "members": 1},
            "after": None,
        }
    ]


@pytest.mark.parametrize("case", ["holds-memories", "federated", "reserved"])
def test_the_delete_guards_show_their_message_in_place(steward, case):
    slug = "onboarding" if case == "reserved" else "team"
    if case != "reserved":
        team = make_workspace("team")
    if case == "holds-memories":
        author = make_principal("author")
        grant(author, team, Role.WORKER)
        make_memory(author=author, domain=write_domain_resolve(actor=author.user, group_id="team"), content="x")
    if case == "federated":
        federation_attach(actor=SYSTEM, federation=federation_create(actor=SYSTEM, name="Platform"), workspace=team)

    answer = steward.post(f"/steward/workspaces/{slug}/delete/", **HTMX)

    expected = {
        "holds-memories": ("workspace_not_empty", "The workspace still holds memories."),
        "federated": ("workspace_federated", "Detach the workspace from its federation first."),
        "reserved": ("reserved_workspace", "The reserved workspace onboarding cannot be federated or deleted."),
    }[case]
    assert answer.status_code == 409
    assert (inline_error(answer)["code"], inline_error(answer)["message"]) == expected
    assert 'id="workspace-delete"' in answer.content.decode()
    assert Workspace.objects.filter(slug=slug).exists()
    assert audit_lines("workspace.delete") == []


def test_the_members_come_a_page_at_a_time(steward):
    team = make_workspace("team")
    for n in range(30):
        grant(make_principal(f"bot-{n:02d}"), team, Role.VIEWER)

    page = steward.get("/steward/workspaces/team/").content.decode()
    more = re.search(r'hx-get="(/steward/workspaces/team/\?members=\d+)"', page)
    rest = steward.get(more.group(1), **HTMX).content.decode()

    names = re.findall(r'<tr data-principal="([^"]+)">', page + rest)
    assert names == [f"bot-{n:02d}" for n in range(29, -1, -1)]


def test_renaming_keeps_the_slug_and_is_audited_once(steward):
    make_workspace("team")

    answer = steward.post("/steward/workspaces/team/rename/", {"name": "Team Blue"}, **HTMX)
    again = steward.post("/steward/workspaces/team/rename/", {"name": "Team Blue"}, **HTMX)

    assert answer.status_code == 200 and answer["HX-Trigger"] == "workspace-renamed"
    assert '<dd id="workspace-name">Team Blue</dd>' in answer.content.decode()
    assert "Renamed to Team Blue." in answer.content.decode()
    assert again.status_code == 200
    assert list(Workspace.objects.filter(slug="team").values_list("name", flat=True)) == ["Team Blue"]
    assert [(line["before"], line["after"]) for line in audit_lines("workspace.rename")] == [
        ({"name": "Team"}, {"name": "Team Blue"})
    ], "the same name again writes no line"


@pytest.mark.parametrize(
    ("form", "code"), [({"name": ""}, "required"), ({"name": "x" * 101}, "max_length"), ({}, "required")]
)
def test_a_bad_name_is_refused_in_place_and_changes_nothing(steward, form, code):
    make_workspace("team")

    answer = steward.post("/steward/workspaces/team/rename/", form, **HTMX)

    assert answer.status_code == 400
    assert (inline_error(answer)["code"], inline_error(answer)["field"]) == (code, "name")
    assert Workspace.objects.get(slug="team").name == "Team"
    assert audit_lines("workspace.rename") == []

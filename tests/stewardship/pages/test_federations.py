"""Federations: creating one, attaching and detaching workspaces with the prospective rule
explained on the page, the existing guards shown in place, each change audited."""

from __future__ import annotations

import re

import pytest

from rbac.models import FederationMember, Role, Workspace
from rbac.policy import SYSTEM, write_domain_resolve
from rbac.services import federation_attach, federation_create
from tests.factories import grant, make_memory, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def platform(db):
    for slug in ("team-red", "team-blue"):
        make_workspace(slug)
    return federation_create(actor=SYSTEM, name="Platform")


def test_creating_a_federation_is_audited(steward):
    answer = steward.post("/steward/federations/", {"name": "Platform", "slug": "plat"}, **HTMX)

    assert answer.status_code == 200 and answer["HX-Trigger"] == "federation-created"
    assert '<a href="/steward/federations/plat/">plat</a>' in answer.content.decode()
    assert [line["after"] for line in audit_lines("federation.create")] == [{"name": "Platform", "slug": "plat"}]


def test_the_page_explains_that_membership_is_prospective(steward, platform):
    html = steward.get("/steward/federations/platform/").content.decode()

    assert "Membership is <strong>prospective</strong>" in html
    assert "Nothing written before is re-shared." in html
    assert "Detaching</strong> keeps every memory's visibility as it was." in html.replace("&#x27;", "'")


def test_attaching_and_detaching_is_audited_and_shown_in_the_history(steward, platform):
    attached = steward.post("/steward/federations/platform/attach/", {"workspace": "team-red"}, **HTMX)
    detached = steward.post("/steward/federations/platform/detach/team-red/", **HTMX)

    assert attached.status_code == 200 and attached["HX-Trigger"] == "federation-changed"
    assert "team-red joined platform" in attached.content.decode()
    assert '<tr data-workspace="team-red" data-state="attached">' in attached.content.decode()
    assert "team-red left platform" in detached.content.decode()
    assert '<tr data-workspace="team-red" data-state="left">' in detached.content.decode()
    assert FederationMember.objects.current().count() == 0
    assert [(line["target"], line["before"], line["after"]) for line in audit_lines("federation.attach")] == [
        ("workspace:team-red", {"federation": None}, {"federation": "platform"})
    ]
    assert [(line["before"], line["after"]) for line in audit_lines("federation.detach")] == [
        ({"federation": "platform"}, {"federation": None})
    ]


def test_detaching_keeps_what_was_written_while_attached_visible_across_the_federation(steward, platform):
    for slug in ("team-red", "team-blue"):
        steward.post("/steward/federations/platform/attach/", {"workspace": slug}, **HTMX)
    blue = make_principal("blue")
    grant(blue, Workspace.objects.get(slug="team-blue"), Role.WORKER)
    shared = make_memory(author=blue, domain=write_domain_resolve(actor=blue.user, group_id="team-blue"), content="x")

    steward.post("/steward/federations/platform/detach/team-blue/", **HTMX)

    shared.refresh_from_db()
    later = write_domain_resolve(actor=blue.user, group_id="team-blue")
    assert sorted(shared.visible_in) == sorted(platform.workspaces.values_list("id", flat=True))
    assert later.federation is None and later.visible_in == [later.workspace.id]


@pytest.mark.parametrize(
    ("slug", "status", "code"),
    [("onboarding", 409, "reserved_workspace"), ("team-blue", 409, "already_federated"), ("nowhere", 400, "not_found")],
    ids=["reserved", "already-federated", "unknown"],
)
def test_a_refused_attach_is_explained_where_the_form_is(steward, platform, slug, status, code):
    other = federation_create(actor=SYSTEM, name="Other")
    federation_attach(actor=SYSTEM, federation=other, workspace=Workspace.objects.get(slug="team-blue"))

    answer = steward.post("/steward/federations/platform/attach/", {"workspace": slug}, **HTMX)

    assert answer.status_code == status
    assert inline_error(answer)["code"] == code
    assert 'id="federation-attach"' in answer.content.decode()
    assert audit_lines("federation.attach") == []


def test_detaching_a_workspace_that_is_not_attached_is_explained(steward, platform):
    answer = steward.post("/steward/federations/platform/detach/team-red/", **HTMX)

    assert answer.status_code == 404
    assert inline_error(answer)["message"] == "team-red is not in platform."


def test_the_list_counts_the_workspaces_in_each_federation_now(steward, platform):
    steward.post("/steward/federations/platform/attach/", {"workspace": "team-red"}, **HTMX)
    federation_create(actor=SYSTEM, name="Empty")

    rows = steward.get("/steward/federations/", **HTMX).content.decode()

    counts = dict(re.findall(r'<tr data-federation="([^"]+)">.*?</td>\s*<td>[^<]*</td>\s*<td>(\d+)</td>', rows, re.S))
    assert counts == {"platform": "1", "empty": "0"}

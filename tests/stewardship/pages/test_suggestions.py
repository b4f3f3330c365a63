"""Fields that name a principal, a workspace or an owner offer the names the room knows as the
steward types, and a name typed wrong is answered with the nearest known ones."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from rbac.models import Role
from rbac.policy import write_domain_resolve
from stewardship.suggest import CANDIDATES, nearest
from tests.factories import grant, make_memory, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, inline_error


@pytest.fixture
def memories_of(db):
    """Memories about each owner named, written in a workspace as the write path does."""
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="team")

    def write(*owners: str) -> None:
        for owner in owners:
            make_memory(author=writer, domain=domain, content=f"{owner} likes tea", user_id=owner)

    return write


def suggested(steward, kind: str, typed: str, field: str = "q") -> list[str]:
    html = steward.get(reverse("steward:suggest", args=[kind]), {field: typed}, **HTMX).content.decode()
    return [part.split('"')[0] for part in html.split('<option value="')[1:]]


def test_principals_and_workspaces_are_offered_those_starting_with_the_text_first(steward):
    for name in ("maria", "amar", "marek", "zoe"):
        make_principal(name)
    for slug in ("marketing", "summary", "ops"):
        make_workspace(slug)

    assert suggested(steward, "principal", "mar", field="principal") == ["marek", "maria", "amar"]
    assert suggested(steward, "workspace", "MAR", field="workspace") == ["marketing", "summary"]
    assert "zoe" in suggested(steward, "principal", "")


def test_owners_are_offered_from_the_memories_held(steward, memories_of):
    memories_of("alice", "alina", "bob-alison")

    assert suggested(steward, "owner", "ali", field="user_id") == ["alice", "alina", "bob-alison"]
    assert suggested(steward, "owner", "zz") == []


def test_suggestions_are_bounded_and_only_for_known_kinds_and_stewards(steward, db):
    for number in range(30):
        make_principal(f"agent-{number:02d}")
    assert len(suggested(steward, "principal", "agent")) == 20
    assert steward.get(reverse("steward:suggest", args=["password"]), {"q": "a"}).status_code == 404
    outsider = Client()
    assert outsider.get(reverse("steward:suggest", args=["principal"]), {"q": "a"}).status_code in (302, 403)


def test_a_typo_is_answered_with_the_nearest_names(steward):
    make_principal("margaret")
    make_workspace("research")
    answer = steward.get(
        reverse("steward:access-check"), {"principal": "margret", "action": "read", "workspace": "research"}, **HTMX
    )
    assert inline_error(answer)["code"] == "not_found"
    assert inline_error(answer)["message"] == "No principal named margret. Did you mean margaret?"

    page = reverse("steward:principal", args=["margaret"])
    refused = steward.post(
        reverse("steward:role-grant", args=["margaret"]), {"workspace": "reserch", "role": "viewer"}, **HTMX
    )
    assert inline_error(refused)["message"] == "No workspace with the slug reserch. Did you mean research?"
    assert steward.get(page).status_code == 200


def test_an_owner_not_held_is_answered_with_the_nearest_owners(steward, memories_of):
    memories_of("katherine")
    html = steward.get(reverse("steward:owner-erase"), {"user_id": "katharine"}).content.decode()

    assert 'id="erasure-nothing"' in html and 'id="erasure-nearest"' in html
    assert 'href="/steward/memories/erase/?user_id=katherine"' in html


def test_the_fields_offer_the_known_names(steward):
    principal = make_principal("margaret")
    workspace = make_workspace("research")
    pages = {
        reverse("steward:access-check"): ("check-principal", "check-workspace"),
        reverse("steward:memories"): ("search-as", "search-owner"),
        reverse("steward:owner-erase"): ("erasure-owner",),
        reverse("steward:principal", args=[principal.user.username]): ("role-workspace",),
        reverse("steward:workspace", args=[workspace.slug]): ("member-principal",),
    }
    for url, fields in pages.items():
        html = steward.get(url).content.decode()
        for field in fields:
            tag = html[html.index(f'id="{field}"') : html.index(">", html.index(f'id="{field}"'))]
            assert f'list="suggest-{field}"' in tag and 'hx-get="/steward/suggest/' in tag, (url, field)
            assert f'<datalist id="suggest-{field}"></datalist>' in html


def test_a_role_granted_is_viewer_unless_chosen(steward):
    principal = make_principal("margaret")
    workspace = make_workspace("research")
    for url, select in (
        (reverse("steward:principal", args=[principal.user.username]), 'id="role-role"'),
        (reverse("steward:workspace", args=[workspace.slug]), 'id="member-role"'),
    ):
        html = steward.get(url).content.decode()
        options = html[html.index(select) : html.index("</select>", html.index(select))]
        assert f'<option value="{Role.VIEWER}" selected>' in options
        assert f'<option value="{Role.GROUPADMIN}" selected>' not in options


def test_the_nearest_names_cost_is_bounded_whatever_is_typed(db):
    for number in range(200):
        make_principal(f"principal-{number:03d}-" + "x" * 40)
    started = time.process_time()
    for typed in ("principal-" + "x" * 54, "p" * 64, "x" * 10_000, "principal-007-" + "x" * 40):
        nearest("principal", typed)
    assert time.process_time() - started < 5, "a fuzz budget, far above the few milliseconds it takes"
    assert CANDIDATES >= 200

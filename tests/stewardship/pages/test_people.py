"""People and agents: adding a principal, the list with its filters and cursor, deactivating and
reactivating, the global admin role and the last-admin guard, each change audited with the
state before and after."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from rbac.models import Principal
from rbac.services import principal_deactivate
from tests.factories import bearer_client, make_agent_with_token, make_principal
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase nobody guesses"


def _listed(html: str) -> list[str]:
    return re.findall(r'<tr data-principal="([^"]+)">', html)


def test_a_human_added_as_global_admin_logs_in_to_the_room(steward):
    answer = steward.post(
        "/steward/people/",
        {"username": "grace", "kind": "human", "password": PASSWORD, "global_admin": "on"},
        **HTMX,
    )

    assert answer.status_code == 200 and answer["HX-Trigger"] == "principal-created"
    assert "Added" in answer.content.decode() and "grace" in answer.content.decode()
    assert audit_lines("principal.create") == [
        {
            "actor": "ada",
            "target": "principal:grace",
            "before": None,
            "after": {"kind": "human", "global_admin": True, "active": True, "password_set": True},
        }
    ]
    browser = Client()
    assert browser.post("/steward/login/", {"username": "grace", "password": PASSWORD}).status_code == 302
    assert browser.get("/steward/people/").status_code == 200


def test_a_plain_form_post_is_redirected_to_the_new_principal(steward):
    answer = steward.post("/steward/people/", {"username": "scout", "kind": "agent"})

    assert (answer.status_code, answer["Location"]) == (302, "/steward/people/scout/")
    page = steward.get(answer["Location"]).content.decode()
    assert '<dd id="principal-kind">agent</dd>' in page and '<dd id="principal-admin">no</dd>' in page


@pytest.mark.parametrize(
    ("form", "status", "code", "field"),
    [
        ({"username": "ada", "kind": "human"}, 409, "name_taken", "username"),
        ({"username": "no spaces", "kind": "agent"}, 400, "invalid", "username"),
        ({"username": "", "kind": "agent"}, 400, "required", "username"),
        ({"username": "zoe", "kind": "robot"}, 400, "invalid_choice", "kind"),
        ({"username": "zoe", "kind": "human", "password": "12345678"}, 400, "password_too_common", "password"),
    ],
    ids=["taken", "bad-name", "no-name", "bad-kind", "weak-password"],
)
def test_a_refused_principal_is_explained_in_the_form_and_nothing_is_added(steward, form, status, code, field):
    answer = steward.post("/steward/people/", form, **HTMX)

    assert answer.status_code == status
    error = inline_error(answer)
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]
    assert 'id="principal-create-form"' in answer.content.decode(), "the form stays, to be corrected"
    assert Principal.objects.count() == 1
    assert audit_lines("principal.create") == []


def test_the_list_filters_by_name_kind_status_and_admin_and_htmx_gets_only_the_rows(steward):
    make_principal("alpha-agent")
    beta = make_principal("beta-agent")
    make_principal("alpha-person", kind=Principal.Kind.HUMAN)
    principal_deactivate(actor=make_principal("root", admin=True).user, user=beta.user)

    full = steward.get("/steward/people/")
    rows = steward.get("/steward/people/", {"name": "alpha"}, **HTMX)

    assert "<html" in full.content.decode() and "<html" not in rows.content.decode()
    assert full["Vary"] and "HX-Request" in full["Vary"]
    assert _listed(rows.content.decode()) == ["alpha-person", "alpha-agent"]
    assert _listed(steward.get("/steward/people/", {"kind": "agent"}, **HTMX).content.decode()) == [
        "root",
        "beta-agent",
        "alpha-agent",
    ]
    assert _listed(steward.get("/steward/people/", {"status": "deactivated"}, **HTMX).content.decode()) == [
        "beta-agent"
    ]
    assert _listed(steward.get("/steward/people/", {"admins": "on"}, **HTMX).content.decode()) == ["root", "ada"]
    assert _listed(steward.get("/steward/people/", {"kind": "nonsense"}, **HTMX).content.decode())[-1] == "ada"


def test_the_list_comes_a_page_at_a_time_and_more_keeps_the_filter(steward):
    for n in range(60):
        make_principal(f"bot-{n:02d}")

    first = steward.get("/steward/people/", {"name": "bot-"}, **HTMX).content.decode()
    more = re.search(r'hx-get="(/steward/people/\?cursor=\d+&amp;name=bot-)"', first)
    assert more, "a More link carrying the filter"
    second = steward.get(more.group(1).replace("&amp;", "&"), **HTMX).content.decode()

    shown = _listed(first) + _listed(second)
    assert len(_listed(first)) == 50
    assert shown == [f"bot-{n:02d}" for n in range(59, -1, -1)], "newest first, each once, none skipped"
    assert "hx-get" not in second, "no More after the last page"


def test_deactivating_refuses_its_tokens_at_once_and_reactivating_brings_them_back(steward):
    _, issued = make_agent_with_token("ranger")
    api = bearer_client(issued.raw)
    listing = {"actor_id": "ranger", "user_id": "bob"}
    assert api.get("/api/v1/list_memories", listing).status_code == 200

    off = steward.post("/steward/people/ranger/deactivate/", **HTMX)

    assert off.status_code == 200 and off["HX-Trigger"] == "principal-changed"
    assert "ranger is deactivated" in off.content.decode()
    assert api.get("/api/v1/list_memories", listing).status_code == 401
    on = steward.post("/steward/people/ranger/reactivate/", **HTMX)
    assert on.status_code == 200 and '<dd id="principal-active">active</dd>' in on.content.decode()
    assert api.get("/api/v1/list_memories", listing).status_code == 200
    assert [(line["before"], line["after"]) for line in audit_lines("principal.deactivate")] == [
        ({"active": True}, {"active": False})
    ]
    assert [(line["before"], line["after"]) for line in audit_lines("principal.reactivate")] == [
        ({"active": False}, {"active": True})
    ]


def test_making_and_removing_a_global_admin_is_audited(steward):
    make_principal("grace", kind=Principal.Kind.HUMAN)

    made = steward.post("/steward/people/grace/global-admin/", {"global_admin": "yes"}, **HTMX)
    removed = steward.post("/steward/people/grace/global-admin/", {"global_admin": "no"}, **HTMX)

    assert "grace is a global admin now." in made.content.decode()
    assert "grace is no longer a global admin." in removed.content.decode()
    assert '<dd id="principal-admin">no</dd>' in removed.content.decode()
    assert [(line["target"], line["before"], line["after"]) for line in audit_lines("principal.global_admin")] == [
        ("principal:grace", {"global_admin": False}, {"global_admin": True}),
        ("principal:grace", {"global_admin": True}, {"global_admin": False}),
    ]


@pytest.mark.parametrize(
    ("path", "form"),
    [("/steward/people/ada/global-admin/", {"global_admin": "no"}), ("/steward/people/ada/deactivate/", {})],
    ids=["demote", "deactivate"],
)
def test_the_last_admin_guard_shows_its_message_in_place(steward, ada, path, form):
    answer = steward.post(path, form, **HTMX)

    assert answer.status_code == 409
    assert inline_error(answer) == {
        "code": "last_admin",
        "field": None,
        "message": "The last active global admin cannot be deactivated or demoted.",
    }
    assert 'id="principal-status"' in answer.content.decode()
    ada.refresh_from_db()
    ada.user.refresh_from_db()
    assert ada.is_global_admin and ada.user.is_active
    assert audit_lines("principal.global_admin") == audit_lines("principal.deactivate") == []


def test_the_guard_refuses_a_plain_form_post_on_the_full_page(steward):
    answer = steward.post("/steward/people/ada/global-admin/", {"global_admin": "no"})

    assert answer.status_code == 409
    assert "<html" in answer.content.decode() and inline_error(answer)["code"] == "last_admin"


def test_an_admin_who_removes_their_own_role_is_shown_out_of_the_room(steward):
    make_principal("grace", kind=Principal.Kind.HUMAN, admin=True)

    answer = steward.post("/steward/people/ada/global-admin/", {"global_admin": "no"}, **HTMX)

    assert answer["HX-Redirect"] == "/steward/"
    assert steward.get("/steward/").status_code == 403


def test_an_unknown_principal_is_a_404(steward):
    assert steward.get("/steward/people/nobody/").status_code == 404
    assert steward.post("/steward/people/nobody/deactivate/").status_code == 404

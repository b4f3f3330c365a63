"""Every page and action of the room, asked by someone who may not enter: an anonymous visitor
is sent to log in, a principal who is not a global admin gets the 403 page, an htmx request
from either is told to reload its page, and nothing changes. A form posted without the CSRF
token is refused, even for a global admin. The list of URLs is read from the room's own URL
patterns, so a page added later is checked without being named here."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from rbac.models import ApiToken, Membership, Principal, Role
from rbac.policy import SYSTEM
from rbac.services import federation_attach, federation_create
from stewardship.models import AuditEntry
from stewardship.urls import room
from tests.conftest import rows_for_the_module
from tests.factories import grant, make_agent_with_token, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX

pytestmark = pytest.mark.django_db

OPEN = {"login", "logout"}
ANY_ID = "7d3c0d2e-5b7a-4c1e-9f0a-2b6d8e4f1a3c"  # the door is checked before anything is looked up
SAMPLES = {"username": "bob", "slug": "team", "workspace": "team", "token_id": None}
SAMPLES |= {"memory_id": ANY_ID, "document_id": ANY_ID, "run_id": ANY_ID, "review_id": ANY_ID, "proposal_id": ANY_ID}
SAMPLES |= {"number": 1, "name": "HELIX_LLM_API_KEY"}
SAMPLES |= {"backup_id": "20260101-000000-abcd", "job_id": ANY_ID}
SAMPLES |= {"user_id": "bob", "kind": "principal"}
NAMES = [pattern.name for pattern in room[0] if isinstance(pattern, URLPattern) and pattern.name not in OPEN]


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker):
    """Bob, his token and workspace, built once for the module's two hundred doors."""
    yield from rows_for_the_module(django_db_blocker, _build_world)


@pytest.fixture
def world(module_world, db):
    """What a door let through would change is rolled back after each test."""
    return module_world


def _build_world() -> dict:
    bob, issued = make_agent_with_token("bob")
    team = make_workspace("team")
    grant(bob, team, Role.WORKER)
    federation_attach(actor=SYSTEM, federation=federation_create(actor=SYSTEM, name="Team"), workspace=team)
    return {"token_id": issued.token.pk}


def _url(name: str, world: dict) -> str:
    pattern = next(p for p in room[0] if p.name == name)
    names = pattern.pattern.converters.keys()
    samples = {**SAMPLES, "token_id": world["token_id"]}
    if name.startswith("federation"):
        samples["slug"] = "team"  # the federation made from the name "Team"
    return reverse(f"steward:{name}", kwargs={key: samples[key] for key in names})


def _state() -> tuple:
    bob = Principal.objects.select_related("user").get(user__username="bob")
    return (
        bob.user.is_active,
        bob.is_global_admin,
        ApiToken.objects.active().count(),
        list(Membership.objects.values_list("user__username", "workspace__slug", "role")),
        AuditEntry.objects.count(),
    )


def test_every_room_page_is_listed():
    assert {"people", "principal", "token-issue", "role-grant", "workspaces", "member-grant"} <= set(NAMES)
    assert {"federations", "federation-attach", "federation-detach", "workspace-delete", "access-check"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_an_anonymous_visitor_is_sent_to_log_in_and_changes_nothing(world, name):
    url, before = _url(name, world), _state()
    browser = Client()

    for method in (browser.get, browser.post):
        answer = method(url)
        assert answer.status_code == 302
        assert answer["Location"].startswith(reverse("steward:login") + "?next=")
        htmx = method(url, **HTMX)
        assert (htmx.status_code, htmx["HX-Refresh"]) == (401, "true")
    assert _state() == before


@pytest.mark.parametrize("name", NAMES)
def test_a_principal_who_is_not_a_global_admin_is_refused_and_changes_nothing(world, name):
    url, before = _url(name, world), _state()
    browser = Client()
    browser.force_login(make_principal("carol", kind=Principal.Kind.HUMAN).user)

    for method in (browser.get, browser.post):
        answer = method(url)
        assert answer.status_code == 403
        assert b"This room is for global admins" in answer.content
        htmx = method(url, **HTMX)
        assert (htmx.status_code, htmx["HX-Refresh"]) == (403, "true")
    assert _state() == before


POSTS = [
    ("principal-deactivate", {}),
    ("principal-reactivate", {}),
    ("principal-global-admin", {"global_admin": "yes"}),
    ("token-issue", {"name": "stolen"}),
    ("token-revoke", {}),
    ("tokens-revoke-all", {}),
    ("role-grant", {"workspace": "team", "role": "groupadmin"}),
    ("role-revoke", {}),
    ("member-grant", {"principal": "bob", "role": "groupadmin"}),
    ("member-revoke", {}),
    ("workspace-rename", {"name": "Mallory"}),
    ("workspace-delete", {}),
    ("federation-attach", {"workspace": "team"}),
    ("federation-detach", {}),
    ("people", {"username": "mallory", "kind": "human", "global_admin": "on"}),
    ("workspaces", {"name": "Mallory"}),
    ("federations", {"name": "Mallory"}),
    ("memory-correct", {"action": "forget"}),
    ("document-forget", {"reason": "stolen"}),
    ("owner-erase", {"user_id": "bob", "confirm": "bob"}),
    ("review-settle", {"resolution": "retract"}),
    ("proposal-adopt", {}),
    ("config-review", {"HELIX_SEARCH_PPR_WEIGHT": "0.5"}),
    ("config-apply", {"base_version": "0", "HELIX_SEARCH_PPR_WEIGHT": "0.5"}),
    ("config-restore-review", {}),
    ("config-restore", {"base_version": "0"}),
    ("credential-set", {"secret": "sk-stolen"}),
    ("credential-clear", {}),
    ("backups", {}),
    ("backup-verify", {}),
    ("backup-delete", {"confirm": "20260101-000000-abcd"}),
    ("backup-restore", {"phrase": "RESTORE 20260101-000000-abcd"}),
    ("atlas-refresh", {}),
    ("observatory-count", {}),
]


@pytest.mark.parametrize(("name", "form"), POSTS, ids=[name for name, _ in POSTS])
def test_a_post_without_the_csrf_token_is_refused_even_for_a_global_admin(world, ada, name, form):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ada.user)
    before, counts = _state(), (Principal.objects.count(), AuditEntry.objects.count())

    answer = browser.post(_url(name, world), form, **HTMX)

    assert answer.status_code == 403
    assert b"CSRF" in answer.content
    assert _state() == before
    assert (Principal.objects.count(), AuditEntry.objects.count()) == counts


def test_every_room_url_that_takes_a_post_is_checked_for_csrf():
    reading = {"observatory", "audit", "principal", "workspace", "federation", "access-check"}
    reading |= {"memories", "memory", "documents", "document", "runs", "run", "ledger", "reviews", "agents", "atlas"}
    reading |= {"owners", "owner", "suggest"}
    reading |= {"config", "config-edit", "config-versions", "credentials"}
    reading |= {"backup", "backup-download", "backup-job", "reembed"}

    assert set(NAMES) - reading == {name for name, _ in POSTS}


def test_with_the_csrf_token_the_same_post_goes_through(world, ada):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ada.user)
    page = browser.get(reverse("steward:principal", args=["bob"]))
    token = page.cookies["csrftoken"].value

    answer = browser.post(
        reverse("steward:token-issue", args=["bob"]), {"name": "laptop"}, HTTP_X_CSRFTOKEN=token, **HTMX
    )

    assert answer.status_code == 200
    assert ApiToken.objects.filter(user__username="bob", name="laptop").exists()


@pytest.mark.parametrize("name", NAMES)
def test_no_page_the_room_answers_a_global_admin_may_be_kept_by_a_cache(world, ada, name):
    """Every answer to a global admin, page, fragment or download, carries Cache-Control: no-store."""
    admin = Client()
    admin.force_login(ada.user)
    answer = admin.get(_url(name, world))
    assert "no-store" in answer.get("Cache-Control", ""), (name, answer.status_code)

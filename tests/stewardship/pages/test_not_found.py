"""An unknown id in the room: a 404 page of the room naming what is missing and the way back,
the one error shape for htmx, and for anyone who may not enter, what they got before (the
login page, the 403 page, or Django's plain 404), never the room's."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from rbac.models import Principal
from tests.factories import make_principal
from tests.stewardship.pages.conftest import HTMX, inline_error

pytestmark = pytest.mark.django_db

UNKNOWN = "7d3c0d2e-5b7a-4c1e-9f0a-2b6d8e4f1a3c"


def heading(response) -> str:
    found = re.search(r'<h1 id="not-found-title">([^<]*)</h1>', response.content.decode())
    return unescape(found.group(1)) if found else ""


def way_back(response) -> str:
    found = re.search(r'<a id="not-found-back" href="([^"]*)">', response.content.decode())
    return found.group(1) if found else ""


@pytest.mark.parametrize(
    ("url", "message", "back"),
    [
        (f"/steward/memories/{UNKNOWN}/", "This memory does not exist or was erased.", "/steward/memories/"),
        (f"/steward/documents/{UNKNOWN}/", "This document does not exist or was erased.", "/steward/documents/"),
        (f"/steward/runs/{UNKNOWN}/", "This run does not exist or was erased.", "/steward/runs/"),
        ("/steward/owners/nobody/", "Nothing is held about this owner", "/steward/owners/"),
        ("/steward/backups/20260101-000000-abcd/", "This backup does not exist or was deleted.", "/steward/backups/"),
        ("/steward/workspaces/nowhere/", "This workspace does not exist or was deleted.", "/steward/workspaces/"),
        ("/steward/people/nobody/", "This principal does not exist or was deleted.", "/steward/people/"),
        ("/steward/federations/nowhere/", "This federation does not exist or was deleted.", "/steward/federations/"),
        ("/steward/no-such-page/", "There is no page at this address.", "/steward/"),
        ("/steward/memories/not-an-id/", "There is no page at this address.", "/steward/"),
    ],
)
def test_an_unknown_id_is_a_room_page_saying_what_is_missing(steward, url, message, back):
    response = steward.get(url)

    assert response.status_code == 404
    assert heading(response).startswith(message)
    assert way_back(response) == back
    html = response.content.decode()
    assert "<title>Not found · Helixsite</title>" in html
    assert '<nav aria-label="Room">' in html, "the page is inside the room, with its navigation"


def test_the_page_adds_the_reason_it_was_given(steward):
    response = steward.get(f"/steward/memories/{UNKNOWN}/", {"as": "ada"})

    assert response.status_code == 404
    assert heading(response) == "This memory does not exist or was erased."
    assert "Memory not found, or not visible to this principal." in response.content.decode()


def test_django_s_own_words_for_a_missing_row_are_left_out(steward):
    html = steward.get("/steward/workspaces/nowhere/").content.decode()

    assert "matches the given query" not in html


def test_an_htmx_request_gets_the_one_error_shape(steward):
    response = steward.post("/steward/people/nobody/deactivate/", **HTMX)

    assert response.status_code == 404
    assert inline_error(response) == {
        "code": "not_found",
        "field": None,
        "message": "This principal does not exist or was deleted.",
    }
    assert "<html" not in response.content.decode()


@pytest.fixture
def visitor(db) -> Client:
    """Logged in, but not a global admin."""
    client = Client()
    client.force_login(make_principal("vic", kind=Principal.Kind.HUMAN).user)
    return client


@pytest.mark.parametrize("url", [f"/steward/memories/{UNKNOWN}/", "/steward/people/nobody/"])
def test_who_may_not_enter_is_answered_at_the_door_not_with_the_room_404(visitor, url):
    response = visitor.get(url)

    assert response.status_code == 403
    assert heading(response) == ""
    assert "does not exist" not in response.content.decode()


def test_an_anonymous_visitor_is_still_sent_to_log_in(db):
    response = Client().get(f"/steward/memories/{UNKNOWN}/")

    assert response.status_code == 302 and response["Location"].startswith("/steward/login/")


@pytest.mark.parametrize("who", ["visitor", "anonymous"])
def test_an_address_of_no_room_page_is_django_s_plain_404_for_who_may_not_enter(visitor, who):
    client = visitor if who == "visitor" else Client()

    response = client.get("/steward/no-such-page/")

    assert response.status_code == 404
    html = response.content.decode()
    assert heading(response) == "" and "Helixsite room" not in html and "Room" not in html


def test_outside_the_room_a_404_stays_django_s(steward):
    response = steward.get("/no-such-page/")

    assert response.status_code == 404
    assert heading(response) == "" and "Helixsite room" not in response.content.decode()

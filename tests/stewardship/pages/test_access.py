"""Who gets into the room: anonymous → the login page; a non-admin → a 403 page that says so;
an active global admin → in. The login page refuses a wrong password and a POST without CSRF."""

from __future__ import annotations

import pytest
from django.test import Client

from rbac.models import Principal
from tests.factories import make_principal

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def _person(username: str, *, admin: bool) -> Principal:
    principal = make_principal(username, kind=Principal.Kind.HUMAN, admin=admin)
    principal.user.set_password(PASSWORD)
    principal.user.save()
    return principal


def test_anonymous_visitors_are_sent_to_the_login_page(client):
    response = client.get("/steward/audit/")

    assert response.status_code == 302
    assert response["Location"] == "/steward/login/?next=/steward/audit/"
    login = client.get(response["Location"])
    assert login.status_code == 200 and b"Log in to the room" in login.content


def test_a_global_admin_logs_in_and_lands_where_they_were_going(client):
    _person("ada", admin=True)

    response = client.post("/steward/login/", {"username": "ada", "password": PASSWORD, "next": "/steward/audit/"})

    assert response.status_code == 302 and response["Location"] == "/steward/audit/"
    assert client.get("/steward/").status_code == 200


def test_a_wrong_password_is_refused_on_the_page(client):
    _person("ada", admin=True)

    response = client.post("/steward/login/", {"username": "ada", "password": "wrong"})

    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert client.get("/steward/").status_code == 302


def test_a_principal_who_is_not_a_global_admin_gets_a_403_page_saying_so(client):
    _person("bob", admin=False)
    client.post("/steward/login/", {"username": "bob", "password": PASSWORD})

    response = client.get("/steward/")

    assert response.status_code == 403
    assert b"This room is for global admins" in response.content and b"bob" in response.content


def test_a_deactivated_admin_is_out(client):
    ada = _person("ada", admin=True)
    client.post("/steward/login/", {"username": "ada", "password": PASSWORD})
    ada.user.is_active = False
    ada.user.save()

    assert client.get("/steward/").status_code == 302, "an inactive user's session no longer authenticates"


def test_a_post_without_the_csrf_token_is_refused():
    _person("ada", admin=True)
    browser = Client(enforce_csrf_checks=True)

    response = browser.post("/steward/login/", {"username": "ada", "password": PASSWORD})

    assert response.status_code == 403
    assert browser.get("/steward/").status_code == 302


def test_logging_out_takes_a_post_and_ends_the_session(client):
    _person("ada", admin=True)
    client.post("/steward/login/", {"username": "ada", "password": PASSWORD})

    assert client.get("/steward/logout/").status_code == 405
    assert client.post("/steward/logout/").status_code == 302
    assert client.get("/steward/").status_code == 302


def test_room_pages_are_never_framed(client):
    response = client.get("/steward/login/")

    assert response["X-Frame-Options"] == "DENY"


def test_the_room_login_has_the_budget_of_failed_logins(client):
    _person("ada", admin=True)
    for _ in range(5):
        assert client.post("/steward/login/", {"username": "ada", "password": "wrong"}).status_code == 200

    locked = client.post("/steward/login/", {"username": "ada", "password": PASSWORD})

    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert client.get("/steward/").status_code == 302, "the right password was not even tried"


def test_an_htmx_request_without_the_role_is_told_to_reload_its_page(client):
    _person("bob", admin=False)

    anonymous = client.get("/steward/audit/", HTTP_HX_REQUEST="true")
    client.post("/steward/login/", {"username": "bob", "password": PASSWORD})
    refused = client.get("/steward/audit/", HTTP_HX_REQUEST="true")

    assert (anonymous.status_code, anonymous["HX-Refresh"]) == (401, "true")
    assert (refused.status_code, refused["HX-Refresh"]) == (403, "true")
    assert b"<html" not in anonymous.content + refused.content, "no login form or 403 page swapped into a fragment"

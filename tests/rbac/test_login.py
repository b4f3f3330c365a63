"""The admin's login within the budget of failed logins: past it, even the right password is
refused, unchecked, with 429; other usernames and addresses are not affected; the budget comes back."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from django.db import connection
from django.test import Client, RequestFactory

from rbac.login import LoginForm
from rbac.services import principal_create
from tests.threads import run_together

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def admins():
    for username in ("alice", "bob", "carol"):
        principal_create(username=username, is_global_admin=True, password=PASSWORD)


def log_in(username: str, password: str, *, address: str = "192.0.2.1") -> tuple[int, Client, str]:
    client = Client(REMOTE_ADDR=address)
    response = client.post("/admin/login/", {"username": username, "password": password, "next": "/admin/"})
    return response.status_code, client, response.content.decode()


def logged_in(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def fail(username: str, times: int, *, address: str = "192.0.2.1") -> None:
    for _ in range(times):
        status, _client, page = log_in(username, "wrong", address=address)
        assert status == 200 and "Please enter the correct username and password for a staff account" in page


def test_past_five_failures_even_the_right_password_is_refused_with_429(admins):
    fail("alice", 5)

    status, client, page = log_in("alice", PASSWORD)

    assert status == 429
    assert "Too many failed logins for this username or from this address. Try again in 3 minutes." in page
    assert not logged_in(client)


def test_the_refusal_says_when_to_come_back_in_retry_after(admins):
    fail("alice", 5)
    client = Client(REMOTE_ADDR="192.0.2.1")

    response = client.post("/admin/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 429
    assert 170 <= int(response["Retry-After"]) <= 180  # one failure back per 15 min / 5


def test_a_refused_attempt_never_checks_the_password(admins):
    fail("alice", 5)

    with mock.patch("django.contrib.auth.forms.authenticate") as authenticate:
        status, _client, _page = log_in("alice", PASSWORD)

    assert status == 429
    authenticate.assert_not_called()


def test_another_username_logs_in_from_the_same_address(admins):
    fail("alice", 5)

    status, client, _page = log_in("bob", PASSWORD)

    assert status == 302 and logged_in(client)


def test_an_address_past_its_budget_is_refused_for_every_username(admins, settings):
    settings.HELIX_LOGIN_ADDRESS_FAILURES = 3
    for username in ("alice", "bob", "mallory"):
        fail(username, 1, address="198.51.100.7")

    refused, _client, _page = log_in("carol", PASSWORD, address="198.51.100.7")
    elsewhere, client, _page = log_in("carol", PASSWORD, address="198.51.100.8")

    assert refused == 429
    assert elsewhere == 302 and logged_in(client)


def test_a_success_clears_no_ones_failures(admins, settings):
    settings.HELIX_LOGIN_ADDRESS_FAILURES = 3
    fail("alice", 2)

    assert log_in("bob", PASSWORD)[0] == 302
    assert log_in("bob", PASSWORD)[0] == 302
    fail("alice", 1)  # the address's third failure: bob's logins neither used nor returned any

    assert log_in("carol", PASSWORD)[0] == 429


def test_after_the_window_the_username_logs_in_again(admins):
    fail("alice", 5)
    assert log_in("alice", PASSWORD)[0] == 429

    with connection.cursor() as cursor:  # fifteen minutes pass
        cursor.execute("UPDATE agents_ratebudget SET updated_at = updated_at - interval '15 minutes'")
    status, client, _page = log_in("alice", PASSWORD)

    assert status == 302 and logged_in(client)


def test_a_refusal_is_one_warning_naming_username_and_address_without_the_password(admins, caplog):
    fail("alice", 5)

    with caplog.at_level(logging.WARNING, logger="rbac.login"):
        log_in("alice", PASSWORD)

    (record,) = [r for r in caplog.records if r.name == "rbac.login"]
    assert record.levelno == logging.WARNING
    assert "alice" in record.getMessage() and "192.0.2.1" in record.getMessage()
    assert PASSWORD not in record.getMessage()


def test_the_login_form_for_other_pages_keeps_the_same_budget(admins):
    request = RequestFactory().post("/login/", REMOTE_ADDR="203.0.113.9")
    for _ in range(5):
        assert not LoginForm(request, data={"username": "alice", "password": "wrong"}).is_valid()

    form = LoginForm(request, data={"username": "alice", "password": PASSWORD})

    assert not form.is_valid()
    assert form.has_error("__all__", code="locked_out") and form.retry_after > 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_guesses_check_no_more_passwords_than_the_budget(admins):
    """Each attempt takes its unit before the password is checked, so a burst cannot outrun the count."""
    statuses = run_together([lambda: log_in("alice", "wrong")[0] for _ in range(12)])

    assert sorted(statuses) == [200] * 5 + [429] * 7

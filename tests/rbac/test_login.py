"""The admin's login within the budgets of failed logins: past one, even the right password is
refused, unchecked, with 429; the account's owner elsewhere, other usernames and other addresses
are not affected; a username under a spray is slowed, never locked; the budgets come back, and
``manage.py login_unlock`` refills them at once."""

from __future__ import annotations

import io
import logging
import re
import time
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client, RequestFactory

from rbac.login import LoginForm
from rbac.services import principal_create
from stewardship.models import AuditEntry
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
    assert "Too many failed logins from this address. Try again in 3 minutes." in page
    assert not logged_in(client)


def test_the_refusal_says_when_to_come_back_in_retry_after(admins):
    started = time.monotonic()
    fail("alice", 5)
    client = Client(REMOTE_ADDR="192.0.2.1")

    response = client.post("/admin/login/", {"username": "alice", "password": PASSWORD})
    spent = time.monotonic() - started

    assert response.status_code == 429
    # One failure back per 15 min / 5, less what has come back since the first failure.
    assert 180 - spent <= int(response["Retry-After"]) <= 180


def test_a_refused_attempt_never_checks_the_password(admins):
    fail("alice", 5)

    with mock.patch("django.contrib.auth.forms.authenticate") as authenticate:
        status, _client, _page = log_in("alice", PASSWORD)

    assert status == 429
    authenticate.assert_not_called()


def test_failures_from_one_address_do_not_lock_the_owner_out_from_another(admins):
    fail("alice", 5, address="203.0.113.66")  # an attacker, spending the username's five there
    assert log_in("alice", PASSWORD, address="203.0.113.66")[0] == 429

    status, client, _page = log_in("alice", PASSWORD, address="192.0.2.1")

    assert status == 302 and logged_in(client)


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


def spray(username: str, addresses: int) -> None:
    for n in range(addresses):
        fail(username, 1, address=f"198.18.{n // 250}.{n % 250 + 1}")


def test_a_username_under_a_spray_is_slowed_per_address_but_its_owner_logs_in(admins, settings):
    settings.HELIX_LOGIN_SPRAY_FAILURES = 10
    spray("alice", 10)  # ten addresses, one failure each: the username's spray budget is spent

    owner, client, _page = log_in("alice", PASSWORD, address="192.0.2.1")
    started = time.monotonic()
    sprayer, _client, _page = log_in("alice", "wrong", address="198.18.9.9")
    again, _client, page = log_in("alice", "wrong", address="198.18.9.9")
    spent = time.monotonic() - started

    assert owner == 302 and logged_in(client), "the owner's first attempt is checked, under the spray too"
    assert sprayer == 200, "each address still has one attempt"
    told = re.search(r"This username is receiving many failed logins\. Try again in (\d+) seconds\.", page)
    assert again == 429 and told, page
    # The delay of 30 s, less the time since this address's last attempt: 30 unless a second passed.
    assert 30 - spent <= int(told[1]) <= 30


def test_under_a_spray_an_address_may_try_again_after_the_delay(admins, settings):
    settings.HELIX_LOGIN_SPRAY_FAILURES = 3
    spray("alice", 3)
    started = time.monotonic()
    fail("alice", 1, address="192.0.2.1")
    client = Client(REMOTE_ADDR="192.0.2.1")
    refused = client.post("/admin/login/", {"username": "alice", "password": PASSWORD})
    spent = time.monotonic() - started
    assert refused.status_code == 429 and 30 - spent <= int(refused["Retry-After"]) <= 30

    with connection.cursor() as cursor:  # thirty seconds pass
        cursor.execute("UPDATE agents_ratebudget SET updated_at = updated_at - interval '30 seconds'")
    status, client, _page = log_in("alice", PASSWORD, address="192.0.2.1")

    assert status == 302 and logged_in(client)


def test_login_unlock_lets_a_locked_username_in_at_once_and_is_audited(admins):
    fail("alice", 5)
    assert log_in("alice", PASSWORD)[0] == 429

    call_command("login_unlock", "alice", stdout=io.StringIO())
    status, client, _page = log_in("alice", PASSWORD)

    assert status == 302 and logged_in(client)
    line = AuditEntry.objects.get(action="login.unlock")
    assert line.target == "principal:alice" and line.after["budgets_refilled"] >= 1


def test_login_unlock_of_an_address_lets_every_username_in_from_it(admins, settings):
    settings.HELIX_LOGIN_ADDRESS_FAILURES = 3
    for username in ("alice", "bob", "mallory"):
        fail(username, 1, address="198.51.100.7")
    assert log_in("carol", PASSWORD, address="198.51.100.7")[0] == 429

    call_command("login_unlock", address="198.51.100.7", stdout=io.StringIO())

    assert log_in("carol", PASSWORD, address="198.51.100.7")[0] == 302
    assert log_in("alice", PASSWORD, address="198.51.100.7")[0] == 302


def test_login_unlock_of_one_username_leaves_the_others_locked(admins):
    fail("alice", 5)
    fail("bob", 5)

    call_command("login_unlock", "alice", stdout=io.StringIO())

    assert log_in("alice", PASSWORD)[0] == 302
    assert log_in("bob", PASSWORD)[0] == 429

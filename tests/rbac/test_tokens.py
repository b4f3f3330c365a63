"""API tokens: shown once, stored hashed, accepted as bearer credentials, revocable."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from rest_framework.test import APIClient

from rbac.authentication import token_authenticate
from rbac.models import ApiToken, Principal
from rbac.policy import is_global_admin
from rbac.services import admin_bootstrap, principal_create, token_issue, token_revoke
from tests.factories import bearer_client

pytestmark = pytest.mark.django_db


def test_the_raw_token_is_stored_nowhere():
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT)
    issued = token_issue(user=agent.user, name="laptop")

    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM rbac_apitoken")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    public = f"hxt_{issued.token.prefix}_"
    secret_part = issued.raw.removeprefix(public)  # the secret may hold "_" itself
    assert issued.raw.startswith(public) and len(secret_part) >= 40
    assert issued.token.prefix in stored and issued.token.digest in stored, "the row was read"
    assert secret_part not in stored
    assert issued.raw not in stored


def test_a_token_authenticates_its_principal():
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT)
    issued = token_issue(user=agent.user, name="laptop")

    response = bearer_client(issued.raw).get("/api/v1/whoami")

    assert response.status_code == 200
    assert response.json() == {"ok": True, "actor_id": "scout", "kind": "agent", "is_global_admin": False}
    assert ApiToken.objects.get().last_used_at is not None


def test_a_call_reads_its_token_and_writes_its_last_use_at_most_once_a_minute():
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT)
    issued = token_issue(user=agent.user, name="laptop")
    client = bearer_client(issued.raw)
    client.get("/api/v1/whoami")
    first_use = ApiToken.objects.get().last_used_at
    statements: list[str] = []

    def seen(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(seen):
        client.get("/api/v1/whoami")
    ApiToken.objects.update(last_used_at=first_use - timedelta(minutes=2))
    client.get("/api/v1/whoami")

    assert statements and not [sql for sql in statements if sql.startswith('UPDATE "rbac_apitoken"')]
    assert ApiToken.objects.get().last_used_at > first_use


@pytest.mark.parametrize("admin", [False, True])
def test_one_statement_reads_the_token_its_user_and_whether_the_caller_is_a_global_admin(
    admin, django_assert_num_queries
):
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT, is_global_admin=admin)
    issued = token_issue(user=agent.user, name="laptop")
    token_authenticate(issued.raw)  # the first use writes last_used_at; the next ones within a minute do not

    with django_assert_num_queries(1):
        caller = token_authenticate(issued.raw).user
        answer = (caller.username, is_global_admin(caller))

    assert answer == ("scout", admin)


def test_the_token_read_carries_its_row_its_user_and_its_principal_as_stored():
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT, is_global_admin=True)
    issued = token_issue(user=agent.user, name="laptop")
    token_authenticate(issued.raw)  # records the first use: the next read is the row as stored

    token = token_authenticate(issued.raw)

    stored = ApiToken.objects.select_related("user__principal").get(pk=issued.token.pk)
    as_read = [(f.attname, getattr(token, f.attname)) for f in ApiToken._meta.concrete_fields]
    assert as_read == [(f.attname, getattr(stored, f.attname)) for f in ApiToken._meta.concrete_fields]
    assert [getattr(token.user, f.attname) for f in token.user._meta.concrete_fields] == [
        getattr(stored.user, f.attname) for f in stored.user._meta.concrete_fields
    ]
    assert (token.user.principal.pk, token.user.principal.kind, token.user.principal.is_global_admin) == (
        agent.pk,
        Principal.Kind.AGENT,
        True,
    )
    token.user.principal.save()  # the instances read are whole rows: saving one changes nothing
    assert Principal.objects.get(pk=agent.pk).is_global_admin is True


def test_revoked_unknown_and_missing_tokens_get_401():
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT)
    issued = token_issue(user=agent.user, name="laptop")
    token_revoke(token=issued.token)

    assert bearer_client(issued.raw).get("/api/v1/whoami").status_code == 401
    assert bearer_client("hxt_00000000_nope").get("/api/v1/whoami").status_code == 401
    assert bearer_client("not-a-token").get("/api/v1/whoami").status_code == 401
    response = APIClient().get("/api/v1/whoami")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"


def test_a_deactivated_principal_cannot_use_its_token():
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT)
    issued = token_issue(user=agent.user, name="laptop")
    agent.user.is_active = False
    agent.user.save()

    assert bearer_client(issued.raw).get("/api/v1/whoami").status_code == 401


def test_bootstrap_creates_one_global_admin_whose_password_and_token_work(client):
    credentials = admin_bootstrap()

    assert credentials is not None
    assert admin_bootstrap() is None, "a second bootstrap creates nothing"
    assert client.login(username=credentials.username, password=credentials.password)
    assert client.get("/admin/").status_code == 200
    assert bearer_client(credentials.token).get("/api/v1/whoami").json()["is_global_admin"] is True
    assert Principal.objects.filter(is_global_admin=True).count() == 1

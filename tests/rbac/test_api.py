"""enroll_client and list_users over HTTP, with the actor rule: a token acts only as itself."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import bearer_client, make_agent_with_token

pytestmark = pytest.mark.django_db


def test_enroll_client_admits_the_caller_once():
    _, issued = make_agent_with_token("scout")
    client = bearer_client(issued.raw)

    first = client.post("/api/v1/enroll_client", {"actor_id": "scout"}, format="json")
    second = client.post("/api/v1/enroll_client", {"actor_id": "scout"}, format="json")

    assert first.status_code == 200
    assert first.json()["role"] == "worker" and first.json()["admitted_now"] is True
    assert second.json()["admitted_now"] is False and second.json()["workspace"] == "onboarding"


def test_a_token_acting_as_someone_else_gets_403_actor_mismatch():
    _, issued = make_agent_with_token("scout")
    make_agent_with_token("victim")

    response = bearer_client(issued.raw).post("/api/v1/enroll_client", {"actor_id": "victim"}, format="json")

    assert response.status_code == 403
    assert response.json() == {
        "ok": False,
        "error": {
            "code": "actor_mismatch",
            "message": "actor_id must be the principal the token belongs to.",
            "field": "actor_id",
        },
    }


def test_missing_actor_id_is_a_field_error():
    _, issued = make_agent_with_token("scout")

    response = bearer_client(issued.raw).post("/api/v1/enroll_client", {}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "actor_id"


def test_list_users_is_for_global_admins_only():
    _, admin_token = make_agent_with_token("root", admin=True)
    _, worker_token = make_agent_with_token("scout")

    listed = bearer_client(admin_token.raw).get("/api/v1/list_users", {"actor_id": "root", "limit": 10})
    refused = bearer_client(worker_token.raw).get("/api/v1/list_users", {"actor_id": "scout"})

    assert listed.status_code == 200
    assert [u["actor_id"] for u in listed.json()["users"]] == ["root", "scout"]
    assert set(listed.json()["users"][0]) == {"id", "actor_id", "kind", "is_active", "date_joined", "last_login"}
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"


def test_anonymous_calls_get_401():
    response = APIClient().get("/api/v1/list_users", {"actor_id": "root"})

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"


def test_bad_limit_names_the_field():
    _, admin_token = make_agent_with_token("root", admin=True)

    response = bearer_client(admin_token.raw).get("/api/v1/list_users", {"actor_id": "root", "limit": 0})

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "limit"


def test_list_users_pages_with_a_cursor():
    _, admin_token = make_agent_with_token("root", admin=True)
    for name in ("ann", "bea", "cid"):
        make_agent_with_token(name)
    client = bearer_client(admin_token.raw)

    first = client.get("/api/v1/list_users", {"actor_id": "root", "limit": 3}).json()
    second = client.get("/api/v1/list_users", {"actor_id": "root", "limit": 3, "cursor": first["next_cursor"]}).json()

    assert [u["actor_id"] for u in first["users"]] == ["ann", "bea", "cid"] and first["next_cursor"] == 3
    assert [u["actor_id"] for u in second["users"]] == ["root"] and second["next_cursor"] is None

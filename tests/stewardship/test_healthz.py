"""GET /healthz: 200 when every part holds, 503 naming the part that does not. Anyone may ask;
only a global admin (session or token) is shown what went wrong."""

from __future__ import annotations

import pytest
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings

from memory.embedding_space import embedding_space_ensure
from memory.providers import get_embedder
from rbac.models import Principal
from tests.factories import bearer_client, make_agent_with_token, make_principal

pytestmark = pytest.mark.django_db

CHECKS = ["database", "vector", "migrations", "embedder", "worker"]


@pytest.fixture
def admin_client(client):
    """A global admin's browser session."""
    client.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)
    return client


def test_without_a_worker_heartbeat_health_is_503_naming_the_worker(admin_client):
    response = admin_client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["failing"] == ["worker"]
    assert body["checks"]["database"]["ok"] is True and body["checks"]["database"]["server_version"]
    assert body["checks"]["vector"]["ok"] is True and body["checks"]["vector"]["version"].startswith("0.")
    assert body["checks"]["migrations"] == {"ok": True}
    assert body["checks"]["embedder"]["ok"] is True
    assert "qcluster" in body["checks"]["worker"]["error"]


def test_a_loaded_local_model_reports_the_runtime_it_runs_in(admin_client):
    get_embedder().embed(["a first search"], purpose="search")

    embedder = admin_client.get("/healthz").json()["checks"]["embedder"]

    assert (embedder["loaded"], embedder["runtime"], embedder["embedded_calls"]) == (True, "onnxruntime", 1)


def test_unapplied_migrations_are_reported_by_name(admin_client):
    MigrationRecorder.Migration.objects.filter(app="memory", name="0001_initial").delete()

    body = admin_client.get("/healthz").json()

    assert "migrations" in body["failing"]
    assert "memory.0001_initial" in body["checks"]["migrations"]["pending"]


def test_an_embedding_dimension_that_differs_from_the_installation_is_reported(admin_client):
    embedding_space_ensure()

    with override_settings(HELIX_EMBEDDING_DIM=768):
        from memory.providers import reset_providers

        reset_providers()
        body = admin_client.get("/healthz").json()

    assert "embedder" in body["failing"]
    assert (
        "HELIX_EMBEDDING_DIM is 768 but this installation stores 384-d vectors" in body["checks"]["embedder"]["error"]
    )


def test_health_needs_no_login_and_is_never_cached(client):
    response = client.get("/healthz")

    assert response.json()["checks"]["database"]["ok"] is True, "an anonymous caller gets the report"
    assert {"no-cache", "no-store", "max-age=0"} <= {part.strip() for part in response["Cache-Control"].split(",")}
    assert client.post("/healthz").status_code == 405


def test_anyone_else_is_told_each_check_by_name_and_whether_it_holds_and_nothing_more(client):
    _, agent_token = make_agent_with_token("scout")
    _, admin_token = make_agent_with_token("warden", admin=True)

    for caller in (client, bearer_client(agent_token.raw), bearer_client("hxt_not_a_real_token")):
        body = caller.get("/healthz").json()

        assert body == {
            "status": "failing",
            "failing": ["worker"],
            "checks": {name: {"ok": name != "worker"} for name in CHECKS},
        }
    admin_view = bearer_client(admin_token.raw).get("/healthz").json()
    assert "qcluster" in admin_view["checks"]["worker"]["error"], "a global admin's token is shown the details"


def test_a_database_refusing_new_connections_fails_health_though_open_connections_still_work(
    client, database_refusing_new_connections
):
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "failing",
        "failing": CHECKS,
        "checks": {name: {"ok": False} for name in CHECKS},
    }

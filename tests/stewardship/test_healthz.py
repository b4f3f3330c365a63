"""GET /healthz: 200 when every part holds, 503 naming the part that does not."""

from __future__ import annotations

import pytest
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings

from memory.services.embedding_space import embedding_space_ensure

pytestmark = pytest.mark.django_db


def test_without_a_worker_heartbeat_health_is_503_naming_the_worker(client):
    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["failing"] == ["worker"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["vector"]["ok"] is True and body["checks"]["vector"]["version"].startswith("0.")
    assert body["checks"]["migrations"] == {"ok": True}
    assert body["checks"]["embedder"]["ok"] is True
    assert "qcluster" in body["checks"]["worker"]["error"]


def test_unapplied_migrations_are_reported_by_name(client):
    MigrationRecorder.Migration.objects.filter(app="memory", name="0001_initial").delete()

    body = client.get("/healthz").json()

    assert "migrations" in body["failing"]
    assert "memory.0001_initial" in body["checks"]["migrations"]["pending"]


def test_an_embedding_dimension_that_differs_from_the_installation_is_reported(client):
    embedding_space_ensure()

    with override_settings(HELIX_EMBEDDING_DIM=768):
        from memory.providers import reset_providers

        reset_providers()
        body = client.get("/healthz").json()

    assert "embedder" in body["failing"]
    assert (
        "HELIX_EMBEDDING_DIM is 768 but this installation stores 384-d vectors" in body["checks"]["embedder"]["error"]
    )


def test_health_needs_no_login_and_is_never_cached(client):
    response = client.get("/healthz")

    assert response.json()["checks"]["database"]["ok"] is True, "an anonymous caller gets the report"
    assert {"no-cache", "no-store", "max-age=0"} <= {part.strip() for part in response["Cache-Control"].split(",")}
    assert client.post("/healthz").status_code == 405

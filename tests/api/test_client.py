"""The Python client against a real HTTP server."""

from __future__ import annotations

import pytest

from helixsite_client import Helixsite, HelixsiteError
from rbac.models import Role
from tests.factories import grant, make_agent_with_token, make_workspace


@pytest.fixture
def client(live_server, transactional_db):
    workspace = make_workspace("team")
    principal, issued = make_agent_with_token("codex")
    grant(principal, workspace, Role.WORKER)
    with Helixsite(live_server.url, token=issued.raw, actor_id="codex") as helix:
        yield helix


def test_add_then_search_over_http(client):
    added = client.add_memory(user_id="alice", message="Alice keeps the release checklist in docs/release.md.")
    found = client.search_memory(user_id="alice", query="where is the release checklist")

    assert added["memory_ids"]
    assert found["results"][0]["id"] == added["memory_ids"][0]
    assert "docs/release.md" in found["results"][0]["content"]


def test_a_refusal_raises_with_status_code_and_field(client):
    with pytest.raises(HelixsiteError) as refused:
        client.search_memory(user_id="alice", query="x", limit=500)

    assert (refused.value.status, refused.value.code, refused.value.field) == (400, "max_value", "limit")


def test_an_unreachable_server_is_an_os_error():
    with Helixsite("http://127.0.0.1:1", token="hxt_x_y", actor_id="codex", timeout=2) as helix, pytest.raises(OSError):
        helix.list_users()


def test_a_revoked_or_wrong_token_is_unauthenticated(live_server, transactional_db):
    helix = Helixsite(live_server.url, token="hxt_nope_nope", actor_id="codex")
    with pytest.raises(HelixsiteError) as refused:
        helix.enroll_client()

    assert (refused.value.status, refused.value.code) == (401, "unauthenticated")

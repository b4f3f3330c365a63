"""Erasing an owner in a real browser: from the memories page, count, a wrong confirmation refused
in place, the right one erases and shows the verification report."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from memory.models import Memory
from rbac.models import Role
from stewardship.models import AuditEntry
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def written():
    principal, issued = make_agent_with_token("writer")
    for slug in ("team", "lab"):
        grant(principal, make_workspace(slug), Role.WORKER)
    api = bearer_client(issued.raw)
    for user_id, group_id, message in (
        ("alice", "team", "I live in Osaka."),
        ("alice", "team", "I prefer jasmine tea."),
        ("alice", "lab", "I collect vintage fountain pens."),
        ("bob", "team", "I live in Lisbon."),
    ):
        body = {"actor_id": "writer", "user_id": user_id, "group_id": group_id, "message": message}
        assert api.post("/api/v1/add_memory", body, format="json").status_code == 200


def test_an_owner_is_erased_in_one_workspace_after_typing_their_id(
    page, live_server, log_in, written, problems, screenshot
):
    person("ada", admin=True)
    log_in("ada")

    page.goto(f"{live_server.url}/steward/memories/")
    page.get_by_role("link", name="Erase an owner…").click()
    expect(page.get_by_role("heading", name="Erase an owner")).to_be_visible()
    page.get_by_label("owner (user_id)").fill("alice")
    page.get_by_label("workspace").select_option("team")
    page.get_by_role("button", name="Count what would be erased").click()

    counts = page.locator("#erasure-counts")
    expect(counts).to_contain_text("memory_memory")
    expect(counts.locator("tr", has_text="memory_memory").locator("td").nth(3)).to_have_text("2")
    assert "user_id=alice" in page.url and "workspace=team" in page.url

    page.get_by_label("Type the owner's id, alice, to erase all of this").fill("bob")
    page.get_by_role("button", name="Erase alice").click()
    expect(page.locator("#erasure-confirm-error")).to_contain_text("Type the owner's id, alice, exactly")
    assert Memory.objects.filter(user_id="alice").count() == 3

    page.get_by_label("Type the owner's id, alice, to erase all of this").fill("alice")
    page.get_by_role("button", name="Erase alice").click()

    expect(page.locator("#erasure-verdict")).to_contain_text("Verification passed: nothing of theirs is left.")
    expect(page.locator("#erasure-tables tr", has_text="memory_memory").locator("td").nth(4)).to_have_text("0")
    screenshot("erasure")
    assert list(Memory.objects.filter(user_id="alice").values_list("content", flat=True)) == [
        "alice collects vintage fountain pens."
    ]
    assert AuditEntry.objects.filter(action="owner.erase", target="owner:alice in workspace:team").count() == 1
    assert [p for p in problems if not p.startswith("400 ")] == []

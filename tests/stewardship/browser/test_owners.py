"""The room's owners in a real browser: search the owners as you type, open one, and read their
profile (each line with its memories) and their timeline in every state, filtered in place."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rbac.models import Role
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MEMORY_PAGE = re.compile(r"^/steward/memories/[0-9a-f-]{36}/$")


def _remember(api, user_id: str, *messages: str) -> None:
    for message in messages:
        body = {"actor_id": "writer", "user_id": user_id, "message": message, "group_id": "team"}
        assert api.post("/api/v1/add_memory", body, format="json").status_code == 200


def test_search_the_owners_then_read_an_owners_profile_and_timeline(page, live_server, log_in, problems, screenshot):
    person("ada", admin=True)
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    _remember(api, "alice", "Alice lives in Lisbon.", "Alice moved to Porto.", "Alice prefers green tea.")
    _remember(api, "bob", "Bob likes chess.")
    log_in("ada")

    page.goto(f"{live_server.url}/steward/")
    page.locator("summary", has_text="Data").click()  # its menu in the navigation
    page.get_by_role("link", name="Owners", exact=True).click()
    expect(page.locator("#owner-rows tr")).to_have_count(2)
    page.get_by_label("owner").fill("ALI")
    expect(page.locator("#owner-rows tr")).to_have_count(1)
    expect(page.locator("#owner-rows")).to_contain_text("alice")
    expect(page.locator("#owner-rows")).not_to_contain_text("bob")
    screenshot("owners")

    page.get_by_role("link", name="alice").click()
    expect(page.locator("h1")).to_have_text("Owner alice")
    profile = page.locator("#profile-team")
    expect(profile).to_contain_text("Alice moved to Porto.")
    expect(profile.locator(".profile-memories a").first).to_have_attribute("href", MEMORY_PAGE)
    expect(page.locator("#owner-timeline")).to_contain_text("Alice lives in Lisbon.")
    expect(page.locator('#owner-timeline [data-state="superseded"]')).to_have_count(1)
    screenshot("owner")

    page.get_by_label("state").select_option("superseded")
    expect(page.locator("#owner-timeline tr")).to_have_count(1)
    expect(page.locator("#owner-timeline")).to_contain_text("Alice lives in Lisbon.")
    expect(page).to_have_url(re.compile(r"/steward/owners/alice/\?state=superseded"))
    assert problems == []

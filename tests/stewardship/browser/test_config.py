"""Configuration in a real browser: a patch edited, its diff reviewed and applied, then seen
through the agent API; a provider key set and never shown again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from helixsite.runtime.models import Credential
from helixsite.runtime.reload import runtime_reset
from rbac.models import Role
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SECRET = "sk-browser-test-9f8e7d6c5b4a"


@pytest.fixture(autouse=True)
def own_config(settings, tmp_path) -> Iterator[None]:
    settings.HELIX_DATA_DIR = tmp_path  # the credentials key file of this test only
    settings.HELIX_CREDENTIALS_KEY = None
    yield
    runtime_reset()


@pytest.fixture
def writer():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def list_memories(api) -> int:
    answer = api.post("/api/v1/list_memories", {"actor_id": "writer", "user_id": "bob"}, format="json")
    return answer.status_code


def test_a_patch_is_reviewed_applied_and_seen_through_the_api(page, live_server, log_in, writer, problems, screenshot):
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/config/edit/")
    page.locator("#config-HELIX_API_RATE").fill("1/day")
    page.locator("#config-HELIX_SEARCH_SEMANTIC_WEIGHT").fill("0.5")
    page.get_by_role("button", name="Review changes").click()

    review = page.locator("#config-review")
    expect(review.locator("#diff-HELIX_API_RATE .before")).to_have_text("1200/minute")
    expect(review.locator("#diff-HELIX_API_RATE .after")).to_have_text("1/day")
    expect(review.locator("#diff-HELIX_SEARCH_SEMANTIC_WEIGHT .after")).to_have_text("0.5")
    expect(review.locator("tbody tr")).to_have_count(2)
    screenshot("config-review")
    page.get_by_role("button", name="Apply 2 changes").click()
    expect(page.locator("#config-applied-version")).to_have_text("1")

    assert [list_memories(writer), list_memories(writer)] == [200, 429], "the budget of one call a day"
    page.goto(f"{live_server.url}/steward/config/")
    expect(page.locator("#setting-HELIX_API_RATE .source")).to_have_text("patch")
    page.goto(f"{live_server.url}/steward/config/versions/")
    expect(page.locator("#config-version-1")).to_contain_text("ada")
    screenshot("config-versions")
    assert problems == []


def test_a_provider_key_is_set_and_never_shown_again(page, live_server, log_in, problems, screenshot):
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/config/credentials/")
    page.locator("#secret-HELIX_LLM_API_KEY").fill(SECRET)
    page.get_by_role("button", name="Set").first.click()

    expect(page.locator("#credential-HELIX_LLM_API_KEY-notice")).to_have_text("Key set.")
    expect(page.locator("#credential-HELIX_LLM_API_KEY-status")).to_contain_text("by ada")
    assert SECRET not in page.content()
    expect(page.locator("#secret-HELIX_LLM_API_KEY")).to_have_value("")
    screenshot("credentials")
    for path in ("/steward/config/credentials/", "/steward/config/", "/steward/audit/"):
        page.goto(f"{live_server.url}{path}")
        assert SECRET not in page.content()
    assert Credential.objects.get(name="HELIX_LLM_API_KEY").is_set
    assert problems == []

"""Configuration in a real browser: a patch edited, its diff reviewed and applied, then seen
through the agent API; a provider key set and never shown again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from helixsite.runtime.models import ConfigVersion, Credential
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


def test_a_refused_value_is_shown_at_its_field_and_the_edits_survive_a_review(
    page, live_server, log_in, problems, screenshot
):
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/config/edit/")
    page.locator("#config-HELIX_API_RATE").fill("5/minute")
    weight = page.locator("#config-HELIX_SEARCH_SEMANTIC_WEIGHT")
    weight.fill("heavy")
    page.get_by_role("button", name="Review changes").click()

    expect(weight).to_be_focused()
    expect(weight).to_have_attribute("aria-invalid", "true")
    expect(weight).to_be_in_viewport()
    expect(page.locator("#config-HELIX_SEARCH_SEMANTIC_WEIGHT-refusal")).to_be_visible()
    expect(page.locator("#config-HELIX_API_RATE")).to_have_value("5/minute")
    screenshot("config-refused")

    weight.fill("0.5")
    page.get_by_role("button", name="Review changes").click()
    expect(page.locator("#config-review tbody tr")).to_have_count(2)
    page.get_by_role("button", name="Back to editing").click()
    expect(page.locator("#config-HELIX_SEARCH_SEMANTIC_WEIGHT")).to_have_value("0.5")
    expect(page.locator("#config-HELIX_API_RATE")).to_have_value("5/minute")
    assert ConfigVersion.objects.count() == 0
    assert [p for p in problems if not (p.startswith("400 ") and p.endswith("/config/review/"))] == []


def test_the_settings_are_filtered_as_you_type_and_the_defaults_undo_the_first_patch(
    page, live_server, log_in, problems
):
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/config/edit/")
    page.locator("#config-change-filter").fill("bm25 saturation")
    expect(page.locator("#edit-HELIX_SEARCH_BM25_K1")).to_be_visible()
    expect(page.locator("#edit-HELIX_API_RATE")).to_be_hidden()
    expect(page.locator("#config-change-shown")).to_contain_text("of")
    page.locator("#config-change-filter").fill("")
    page.locator("#config-HELIX_API_RATE").fill("5/minute")
    page.get_by_role("button", name="Review changes").click()
    page.get_by_role("button", name="Apply 1 change").click()
    expect(page.locator("#config-applied-version")).to_have_text("1")

    page.goto(f"{live_server.url}/steward/config/")
    page.locator("#config-effective-changed").check()
    expect(page.locator("#setting-HELIX_API_RATE")).to_be_visible()
    expect(page.locator("#setting-HELIX_SEARCH_BM25_K1")).to_be_hidden()
    expect(page.locator("#setting-HELIX_API_RATE .tag.changed")).to_be_visible()

    page.goto(f"{live_server.url}/steward/config/versions/")
    page.get_by_role("button", name="Restore the defaults…").click()
    expect(page.locator("#review-title")).to_have_text("Review: restore the defaults")
    page.get_by_role("button", name="Apply 1 change").click()
    expect(page.locator("#config-applied")).to_contain_text("restoring the defaults")
    page.goto(f"{live_server.url}/steward/config/")
    expect(page.locator("#setting-HELIX_API_RATE .source")).to_have_text("default")
    assert problems == []


def test_a_swap_copies_no_inline_style_the_policy_would_refuse(page, live_server, log_in, problems):
    """A script may style an element through the CSSOM (a chart sizing its box); when htmx swaps
    that part of the page, it must not write the old element's style attribute onto the new one."""
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/config/edit/")
    page.evaluate("document.getElementById('config-HELIX_API_RATE').style.width = '20rem'")
    page.evaluate("document.addEventListener('htmx:afterSettle', () => { window.settled = true }, {once: true})")
    page.locator("#config-HELIX_SEARCH_SEMANTIC_WEIGHT").fill("heavy")
    page.get_by_role("button", name="Review changes").click()

    page.wait_for_function("() => window.settled === true")  # the swap and its settling are over
    expect(page.locator("#config-HELIX_SEARCH_SEMANTIC_WEIGHT-refusal")).to_be_visible()
    assert [p for p in problems if not (p.startswith("400 ") and p.endswith("/config/review/"))] == []

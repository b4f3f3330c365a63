"""A field naming a principal offers the known names as the steward types, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import make_principal, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_typing_a_principal_offers_the_known_names_and_a_typo_the_nearest(page, live_server, log_in, problems):
    person("ada", admin=True)
    for name in ("margaret", "marek", "zoe"):
        make_principal(name)
    make_workspace("research")
    log_in("ada")
    page.goto(f"{live_server.url}/steward/access/")

    field = page.locator("#check-principal")
    field.press_sequentially("mar")
    options = page.locator("#suggest-check-principal option")
    expect(options).to_have_count(2)
    expect(options.first).to_have_attribute("value", "marek")
    expect(page).to_have_url(f"{live_server.url}/steward/access/")  # the page's address stays

    field.fill("margret")
    page.locator("#check-workspace").fill("research")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("alert")).to_contain_text("No principal named margret. Did you mean margaret")
    assert [p for p in problems if not (p.startswith("400 ") and "/steward/access/?" in p)] == []

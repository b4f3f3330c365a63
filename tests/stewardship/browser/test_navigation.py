"""The room's navigation in a real browser: its groups on one row at 1,280 px, every link reachable
on a 390 px phone, the page being shown marked; and the room's 404 page for an unknown id."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from stewardship.navigation import ROOM_NAV
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GROUPS = [group for group, _ in ROOM_NAV]
UNKNOWN = "7d3c0d2e-5b7a-4c1e-9f0a-2b6d8e4f1a3c"


def within(box: dict, width: int) -> bool:
    return box["x"] >= 0 and box["x"] + box["width"] <= width and box["width"] > 0


def test_the_groups_hold_on_one_row_at_1280_px_and_mark_the_page(page, live_server, log_in, problems, screenshot):
    page.set_viewport_size({"width": 1280, "height": 800})
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/atlas/")

    nav = page.get_by_role("navigation", name="Room")
    summaries = nav.locator("summary")
    expect(summaries).to_have_count(len(GROUPS))
    boxes = [summaries.nth(i).bounding_box() for i in range(len(GROUPS))]
    assert len({round(box["y"]) for box in boxes}) == 1, f"one row: {boxes}"
    assert nav.bounding_box()["height"] <= boxes[0]["height"] + 1, "the navigation is one line high"
    bar = page.locator("header.bar").bounding_box()
    assert bar["height"] < 2.2 * boxes[0]["height"], "the name, the menus and the log-out share one row"
    expect(summaries.nth(0)).to_have_text("Data · Atlas")

    summaries.nth(0).click()
    current = nav.get_by_role("link", name="Atlas", exact=True)
    expect(current).to_be_visible()
    expect(current).to_have_attribute("aria-current", "page")
    screenshot("navigation")
    summaries.nth(1).click()
    expect(current).to_be_hidden()  # one menu open at a time
    nav.get_by_role("link", name="Workspaces").click()
    expect(page).to_have_url(f"{live_server.url}/steward/workspaces/")
    expect(page.get_by_role("navigation", name="Room").locator("summary").nth(1)).to_have_text("Access · Workspaces")
    assert problems == []


def test_every_link_is_reachable_on_a_narrow_screen(page, live_server, log_in, problems):
    page.set_viewport_size({"width": 390, "height": 844})
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/")

    nav = page.get_by_role("navigation", name="Room")
    summaries = nav.locator("summary")
    assert all(within(summaries.nth(i).bounding_box(), 390) for i in range(len(GROUPS)))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing is wider than the screen"
    for index, (_, pages) in enumerate(ROOM_NAV):
        summaries.nth(index).click()
        for _, label in pages:
            link = nav.get_by_role("link", name=label, exact=True)
            expect(link).to_be_visible()
            assert within(link.bounding_box(), 390), f"{label} is on the screen"
    nav.get_by_role("link", name="Audit").click()
    expect(page).to_have_url(f"{live_server.url}/steward/audit/")
    assert problems == []


def test_an_unknown_memory_is_the_room_s_404_page(page, live_server, log_in, problems, screenshot):
    person("ada", admin=True)
    log_in("ada")
    url = f"{live_server.url}/steward/memories/{UNKNOWN}/"

    answer = page.goto(url)

    assert answer is not None and answer.status == 404
    expect(page).to_have_title("Not found · Helixsite")
    expect(page.get_by_role("heading", level=1)).to_have_text("This memory does not exist or was erased.")
    expect(page.get_by_role("navigation", name="Room")).to_be_visible()
    screenshot("not-found")
    page.get_by_role("link", name="Back to Memories").click()
    expect(page).to_have_url(f"{live_server.url}/steward/memories/")
    assert problems == [f"404 {url}"], "the 404 itself, and no console error"

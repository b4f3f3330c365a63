"""The category atlas in a real browser: the treemap drawn by ECharts from the snapshot, a click
on a box listing its memories, the table's drill-down paging, and a filter redrawing the picture,
all under the room's Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from memory.categories.services import atlas_snapshot_take
from rbac.models import Role
from stewardship.pages import atlas as atlas_page
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MESSAGES = [
    "I deploy the staging cluster with Terraform.",
    "I moved the DNS servers behind the new firewall.",
    "The production database runs on Postgres 16.",
    "My favourite food is ramen.",
    "I am allergic to peanuts.",
    "I booked a flight to Oslo for the conference.",
]


@pytest.fixture
def filed_library():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    for message in MESSAGES:
        body = {"actor_id": "writer", "user_id": "bob", "message": message}
        assert api.post("/api/v1/add_memory", body, format="json").status_code == 200
    return atlas_snapshot_take()


def test_the_atlas_picture_and_a_drill_down(page, live_server, log_in, filed_library, problems):
    person("ada", admin=True)
    log_in("ada")

    page.goto(f"{live_server.url}/steward/atlas/")

    chart = page.locator("[data-atlas-chart]")
    expect(chart).to_have_attribute("data-drawn", "true")
    expect(chart.locator("canvas").first).to_be_attached()
    assert int(chart.get_attribute("data-boxes")) >= 5
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)

    expect(page.locator("#atlas-drill-path")).to_be_visible()
    chosen = chart.get_attribute("data-chosen")
    assert chosen, "a click on a box chose its category"
    expect(page.locator("#atlas-drill-path")).to_have_text(chosen)
    expect(page.locator("#atlas-drill-rows tr").first).to_be_visible()
    assert problems == []


def test_the_table_drill_down_pages_and_a_filter_redraws(
    page, live_server, log_in, filed_library, problems, monkeypatch
):
    monkeypatch.setattr(atlas_page, "PAGE_SIZE", 1)
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/atlas/")

    page.locator(".atlas-table a", has_text="work/infrastructure").click()
    expect(page.locator("#atlas-drill-path")).to_have_text("work/infrastructure")
    expect(page.locator("#atlas-drill-rows a")).to_have_count(1)
    page.locator("#atlas-drill-rows").get_by_role("button", name="More").click()
    expect(page.locator("#atlas-drill-rows a")).to_have_count(2)
    assert "category=work/infrastructure" in page.url, "the drill-down is in the address"

    page.get_by_label("focus").fill("health")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".atlas-table a")).to_have_text(["health", "health/allergies"])
    expect(page.locator("[data-atlas-chart]")).to_have_attribute("data-boxes", "2")
    assert problems == []


def outlined(page) -> str:
    """The path of the box the treemap draws outlined, read from the chart's own option."""
    return page.evaluate(
        """() => {
            const chart = echarts.getInstanceByDom(document.querySelector("[data-atlas-chart]"));
            const stack = [...chart.getOption().series[0].data];
            while (stack.length) {
                const node = stack.pop();
                if (node.itemStyle && node.itemStyle.borderColor) return node.path;
                stack.push(...(node.children || []));
            }
            return "";
        }"""
    )


def test_a_click_on_a_box_opens_its_drill_down_beside_the_picture_in_view(
    page, live_server, log_in, filed_library, problems, screenshot
):
    page.set_viewport_size({"width": 1280, "height": 800})
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/atlas/")
    chart = page.locator("[data-atlas-chart]")
    expect(chart).to_have_attribute("data-drawn", "true")
    assert outlined(page) == "", "nothing is outlined before a choice"

    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)

    drill = page.locator("#atlas-drill-section")
    expect(page.locator("#atlas-drill-rows tr").first).to_be_visible()
    expect(drill).to_be_in_viewport()
    chosen = chart.get_attribute("data-chosen")
    expect(page.locator("#atlas-drill-path")).to_have_text(chosen)
    assert outlined(page) == chosen, "the box listed is outlined"
    beside = drill.bounding_box()
    assert beside["x"] >= box["x"] + box["width"] and beside["y"] < box["y"] + box["height"], "next to the picture"
    screenshot("atlas")
    assert problems == []


def test_a_row_on_a_narrow_screen_scrolls_to_its_drill_down_and_outlines_its_box(
    page, live_server, log_in, filed_library, problems
):
    page.set_viewport_size({"width": 390, "height": 844})
    person("ada", admin=True)
    log_in("ada")
    page.goto(f"{live_server.url}/steward/atlas/")
    expect(page.locator("[data-atlas-chart]")).to_have_attribute("data-drawn", "true")
    drill = page.locator("#atlas-drill-section")
    expect(drill).not_to_be_in_viewport()

    page.locator(".atlas-table a", has_text="work/infrastructure").click()

    expect(page.locator("#atlas-drill-path")).to_have_text("work/infrastructure")
    expect(drill).to_be_in_viewport()
    expect(page.locator(".atlas-table tr.chosen")).to_have_text(re.compile("^work/infrastructure"))
    assert outlined(page) == "work/infrastructure"
    assert problems == []

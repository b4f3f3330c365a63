"""The room's lists in a real browser: settled reviews stay in reach under their filter, with the
reason in words, and a run page leads to the memories the run wrote."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from memory.charter.models import ContradictionReview
from memory.models import IngestRun
from rbac.models import Role
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _remember(api, *messages: str) -> None:
    for message in messages:
        body = {"actor_id": "writer", "user_id": "bob", "message": message}
        assert api.post("/api/v1/add_memory", body, format="json").status_code == 200


def test_switch_the_reviews_to_settled_then_follow_a_run_to_a_memory_it_wrote(
    page, live_server, log_in, problems, screenshot
):
    person("ada", admin=True)
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    _remember(api, "Bob is allergic to peanuts.", "I'm not allergic to peanuts after all, the test was negative.")
    _remember(api, "I live in Osaka.", "I don't live in Osaka.")
    allergy = ContradictionReview.objects.get(to_memory__content__contains="peanuts")
    log_in("ada")

    page.goto(f"{live_server.url}/steward/reviews/")
    expect(page.locator("#review-list article.review")).to_have_count(2)
    expect(page.locator(f"#review-{allergy.id} .reason")).to_have_text("Why: retracts “Bob is allergic to peanuts.”")
    page.locator(f"#review-{allergy.id}").get_by_role("button", name="Retract").click()
    expect(page.locator(f"#review-{allergy.id} .settled")).to_contain_text("Settled: retract by ada")

    page.get_by_label("show").select_option("settled")
    expect(page).to_have_url(re.compile(r"/steward/reviews/\?status=settled$"))
    expect(page.locator("#review-list article.review")).to_have_count(1)
    expect(page.locator(f"#review-{allergy.id}")).to_contain_text("Settled: retract by ada")
    screenshot("reviews-settled")

    first = IngestRun.objects.get(message="Bob is allergic to peanuts.")
    page.goto(f"{live_server.url}/steward/runs/")
    row = page.locator("#run-rows tr", has_text="Bob is allergic to peanuts.")
    expect(row.locator(".outcomes")).to_have_text("ADD")
    row.locator(f'a[href="/steward/runs/{first.id}/"]').click()
    statement = page.locator("#atom-0")
    expect(statement).to_contain_text("ADD")
    screenshot("run-outcomes")

    (written,) = first.result["memory_ids"]
    statement.locator(f'a.memory-ref[href="/steward/memories/{written}/"]').click()
    expect(page.locator("h1")).to_have_text(f"Memory {written}")
    expect(page.locator("main")).to_contain_text("Bob is allergic to peanuts.")
    assert problems == []

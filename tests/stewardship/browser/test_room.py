"""The room in a real browser: who gets in, the observatory's chart, settling a contradiction
with htmx, the memory graph picture, and CSRF on every POST."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from memory.charter.models import ContradictionReview
from memory.models import Edge, EdgeType
from rbac.models import Principal, Role
from rbac.policy import write_domain_resolve
from tests.factories import bearer_client, grant, make_agent_with_token, make_memory, make_principal, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def writer():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def _add(api, message: str) -> str:
    answer = api.post("/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": message}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["memory_ids"][0]


def test_a_global_admin_logs_in_and_sees_the_observatory_chart(page, live_server, log_in, problems, screenshot):
    person("ada", admin=True)
    page.goto(f"{live_server.url}/steward/")
    expect(page.get_by_role("heading", name="Log in to the room")).to_be_visible()
    screenshot("login")

    log_in("ada")

    expect(page.get_by_role("heading", name="Observatory")).to_be_visible()
    expect(page.locator("#activity-chart canvas")).to_have_count(1)  # uPlot drew the 24 h chart
    expect(page.locator("#activity-chart")).to_have_attribute("data-drawn", "true")
    screenshot("observatory")
    assert problems == []


def test_count_now_on_the_observatory_redraws_what_is_stored(page, live_server, log_in, writer, problems):
    person("ada", admin=True)
    _add(writer, "Bob lives in Lisbon.")
    log_in("ada")
    expect(page.get_by_role("heading", name="Observatory")).to_be_visible()  # the first visit counted
    current = page.locator("#counts dt:text-is('memories, current') + dd")
    expect(current).to_have_text("1")

    _add(writer, "Bob keeps bees on the roof.")
    page.reload()
    expect(current).to_have_text("1")  # read from the snapshot
    page.get_by_role("button", name="Count now").click()

    expect(current).to_have_text("2")
    expect(page.locator("#counts")).to_contain_text("Counted 0\xa0minutes ago")
    assert problems == []


def test_a_principal_who_is_not_an_admin_is_refused_with_a_page_saying_so(page, live_server, log_in, problems):
    person("bob", admin=False)

    log_in("bob")

    expect(page.get_by_role("heading", name="This room is for global admins")).to_be_visible()
    assert page.goto(f"{live_server.url}/steward/runs/").status == 403
    assert [p for p in problems if not p.startswith("403 ")] == []


def test_a_contradiction_is_settled_from_the_page(page, live_server, log_in, writer, problems, screenshot):
    person("ada", admin=True)
    _add(writer, "I live in Osaka.")
    _add(writer, "I don't live in Osaka.")
    review = ContradictionReview.objects.get()
    log_in("ada")

    page.goto(f"{live_server.url}/steward/reviews/")
    screenshot("reviews")
    card = page.locator(f"#review-{review.id}")
    card.get_by_role("button", name="retract").click()

    expect(page.locator(f"#review-{review.id} [role=status]")).to_contain_text("Settled: retract")
    review.refresh_from_db()
    assert (review.status, review.resolution, review.resolved_by.username) == ("settled", "retract", "ada")
    assert page.url.endswith("/steward/reviews/"), "settled in place, without a reload"
    assert problems == []


def test_the_memory_graph_picture_renders(page, live_server, log_in, writer, problems, screenshot):
    person("ada", admin=True)
    old = _add(writer, "Bob lives in Lisbon.")
    _add(writer, "Bob moved to Porto.")
    log_in("ada")

    page.goto(f"{live_server.url}/steward/memories/{old}/")

    graph = page.locator("#memory-graph")
    expect(graph.locator("canvas").first).to_be_attached()
    expect(graph).to_have_attribute("data-nodes", "2")
    expect(graph).to_have_attribute("data-edges", "1")
    screenshot("memory")
    assert problems == []


def test_search_as_a_principal_and_the_run_log(page, live_server, log_in, writer, problems, screenshot):
    person("ada", admin=True)
    _add(writer, "Bob's favourite tea is genmaicha.")
    log_in("ada")

    page.goto(f"{live_server.url}/steward/memories/")
    page.get_by_label("view as").fill("writer")
    page.get_by_label("query").fill("favourite tea")
    page.get_by_label("owner (user_id)").fill("bob")
    page.get_by_role("button", name="Search").click()

    expect(page.locator("#memory-results table.results")).to_contain_text("genmaicha")
    assert "as=writer" in page.url, "the search is in the address, to share or reload"
    screenshot("memories")
    page.goto(f"{live_server.url}/steward/runs/")
    page.locator("#run-rows a").first.click()
    expect(page.locator("#stage-decide")).to_be_visible()
    screenshot("run")
    assert problems == []


def test_a_post_without_the_csrf_token_is_refused(page, live_server, log_in, writer):
    person("ada", admin=True)
    _add(writer, "I live in Osaka.")
    _add(writer, "I don't live in Osaka.")
    review = ContradictionReview.objects.get()
    log_in("ada")

    answer = page.request.post(f"{live_server.url}/steward/reviews/{review.id}/settle/", form={"resolution": "retract"})

    assert answer.status == 403 and re.search("CSRF", answer.text())
    review.refresh_from_db()
    assert review.status == "open"


def test_a_token_issued_on_the_page_is_shown_once_and_then_authenticates_against_the_api(
    page, live_server, log_in, problems, screenshot
):
    person("ada", admin=True)
    make_principal("courier")
    log_in("ada")
    page.goto(f"{live_server.url}/steward/people/")
    screenshot("people")

    page.goto(f"{live_server.url}/steward/people/courier/")
    page.get_by_label("Name").fill("laptop-agent")
    page.get_by_role("button", name="Issue token").click()

    shown = page.locator("#new-token-value")
    expect(shown).to_have_text(re.compile(r"^hxt_\S+$"))
    raw = shown.inner_text()
    screenshot("principal")
    api = page.request.get(f"{live_server.url}/api/v1/whoami", headers={"Authorization": f"Bearer {raw}"})
    assert (api.status, api.json()["actor_id"]) == (200, "courier")

    page.reload()
    expect(page.locator("#token-rows")).to_contain_text("laptop-agent")
    assert raw not in page.content(), "the raw token is shown once, never again"
    assert problems == []


def test_granting_a_role_on_the_page_changes_what_that_principals_search_returns(
    page, live_server, log_in, writer, problems, screenshot
):
    person("ada", admin=True)
    _add(writer, "Bob's locker code is 4417.")
    reader, issued = make_agent_with_token("reader")
    search = {"actor_id": "reader", "user_id": "bob", "query": "locker code"}
    headers = {"Authorization": f"Bearer {issued.raw}"}

    def found() -> list[str]:
        answer = page.request.post(f"{live_server.url}/api/v1/search_memory", data=search, headers=headers)
        assert answer.status == 200, answer.text()
        return [result["content"] for result in answer.json()["results"]]

    assert found() == [], "no role in team: nothing of it is visible"
    log_in("ada")
    page.goto(f"{live_server.url}/steward/workspaces/team/")
    page.get_by_label("Principal", exact=True).fill("reader")
    page.get_by_label("Role", exact=True).select_option("viewer")
    page.get_by_role("button", name="Grant role").click()

    expect(page.locator("#member-rows")).to_contain_text("reader")
    screenshot("workspace")
    assert found() == ["Bob's locker code is 4417."]

    page.goto(f"{live_server.url}/steward/access/?principal=reader&action=write&workspace=team")
    expect(page.locator("#access-rule")).to_have_text("permission_missing")  # a viewer reads, never writes
    screenshot("access")
    assert problems == []


def test_a_retracted_memory_shows_its_state_and_leads_to_its_review(page, live_server, log_in, writer, problems):
    person("ada", admin=True)
    allergy = _add(writer, "I am allergic to peanuts.")
    _add(writer, "I'm not allergic to peanuts after all.")
    review = ContradictionReview.objects.get(to_memory_id=allergy)
    log_in("ada")

    page.goto(f"{live_server.url}/steward/memories/{allergy}/")

    state = page.locator("#memory-state")
    expect(state.locator("[data-state]")).to_have_text("retracted")
    expect(state).not_to_contain_text("current")
    state.get_by_role("link", name="review open").click()
    expect(page.locator(f"#review-{review.id}")).to_be_visible()
    assert page.url.endswith(f"/steward/reviews/#review-{review.id}")
    assert problems == []


def test_the_graph_is_laid_out_from_its_memory_without_a_console_warning(page, live_server, log_in, writer, problems):
    person("ada", admin=True)
    author = Principal.objects.get(user__username="writer")
    domain = write_domain_resolve(actor=author.user, group_id="team")
    # An id starting with a digit, as most are: "#" + id is no valid selector for it.
    old = make_memory(author=author, domain=domain, user_id="bob", content="Bob lives in Lisbon.", id=uuid.UUID(int=1))
    new = make_memory(author=author, domain=domain, user_id="bob", content="Bob moved to Porto.")
    Edge.objects.create(source=new, target=old, edge_type=EdgeType.SUPERSEDES, confidence=1.0)
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    log_in("ada")

    page.goto(f"{live_server.url}/steward/memories/{old.id}/")

    graph = page.locator("#memory-graph")
    expect(graph).to_have_attribute("data-root", str(old.id))
    expect(graph).to_have_attribute("data-nodes", "2")
    assert warnings == [] and problems == []

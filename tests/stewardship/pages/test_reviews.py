"""Contradictions settled from the room have the effect resolve_contradiction has, and are audited;
three equal verdicts propose a rule, adopted from the page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from memory.charter.models import ContradictionReview, LearnedRule
from memory.models import Memory
from rbac.models import Principal, Role
from stewardship.models import AuditEntry
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(client):
    client.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)
    return client


@pytest.fixture
def writer():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def _contradiction(api, city: str = "Osaka") -> ContradictionReview:
    for message in (f"I live in {city}.", f"I don't live in {city}."):
        body = {"actor_id": "writer", "user_id": "bob", "message": message}
        assert api.post("/api/v1/add_memory", body, format="json").status_code == 200
    return ContradictionReview.objects.get(to_memory__content__contains=city, from_memory__content__contains="not")


def test_an_open_review_is_listed_and_settled_from_the_page(steward, writer):
    review = _contradiction(writer)

    page = steward.get("/steward/reviews/").content.decode()
    assert f'id="review-{review.id}"' in page and "bob lives in Osaka." in page

    answer = steward.post(
        f"/steward/reviews/{review.id}/settle/", {"resolution": "retract"}, headers={"HX-Request": "true"}
    )

    assert answer.status_code == 200 and answer["HX-Trigger"] == "review-settled"
    assert "Settled: <strong>retract</strong>" in answer.content.decode()
    review.refresh_from_db()
    assert (review.status, review.resolution, review.resolved_by.username) == ("settled", "retract", "ada")
    assert Memory.objects.get(pk=review.to_memory_id).valid_to is not None, "retract supersedes the older memory"
    entry = AuditEntry.objects.get(action="review.settle")
    assert (entry.actor_name, entry.target) == ("ada", f"review:{review.id}")
    assert entry.before == {"status": "open", "resolution": ""}
    assert entry.after["resolution"] == "retract" and entry.after["superseded"] == [str(review.to_memory_id)]
    assert f'id="review-{review.id}"' not in steward.get("/steward/reviews/").content.decode()


def _listed(html: str) -> list[str]:
    return re.findall(r'<article class="review" id="review-([0-9a-f-]{36})"', html)


def test_settled_reviews_stay_visible_under_their_filter_with_who_settled_them(steward, writer):
    settled, still_open = _contradiction(writer, "Osaka"), _contradiction(writer, "Lyon")
    assert steward.post(f"/steward/reviews/{settled.id}/settle/", {"resolution": "confirm"}).status_code == 302

    by_default = steward.get("/steward/reviews/").content.decode()
    settled_only = steward.get("/steward/reviews/", {"status": "settled"}).content.decode()
    everything = steward.get("/steward/reviews/", {"status": "all"}, headers={"HX-Request": "true"}).content.decode()
    refused = steward.get("/steward/reviews/", {"status": "deleted"}).content.decode()

    assert _listed(by_default) == [str(still_open.id)] and '<option value="open" selected>' in by_default
    assert _listed(settled_only) == [str(settled.id)] and '<option value="settled" selected>' in settled_only
    assert "Settled: <strong>confirm</strong> by ada, <time" in settled_only
    assert _listed(everything) == [str(still_open.id), str(settled.id)] and "<html" not in everything
    assert "show: Select a valid choice." in refused and _listed(refused) == [str(still_open.id)]


def test_settled_reviews_page_with_a_cursor_that_keeps_the_filter(steward, writer):
    for city in ("Osaka", "Lyon", "Quito"):
        review = _contradiction(writer, city)
        assert steward.post(f"/steward/reviews/{review.id}/settle/", {"resolution": "confirm"}).status_code == 302
    _contradiction(writer, "Oslo")

    from stewardship.pages import reviews

    reviews.PAGE_SIZE, size = 2, reviews.PAGE_SIZE
    try:
        seen, url, params = [], "/steward/reviews/", {"status": "settled"}
        while url:
            fragment = steward.get(url, params, headers={"HX-Request": "true"}).content.decode()
            seen += _listed(fragment)
            more = re.search(r'hx-get="(/steward/reviews/\?[^"]+)"', fragment)
            url, params = (more.group(1).replace("&amp;", "&"), {}) if more else (None, {})
    finally:
        reviews.PAGE_SIZE = size

    newest_first = ContradictionReview.objects.filter(status="settled").order_by("-created_at", "-pk")
    assert seen == [str(review.id) for review in newest_first], "every settled review once, across pages"


def test_a_retraction_is_reviewed_with_a_reason_in_words(steward, writer):
    for message in ("Bob is allergic to peanuts.", "I'm not allergic to peanuts after all, the test was negative."):
        body = {"actor_id": "writer", "user_id": "bob", "message": message}
        assert writer.post("/api/v1/add_memory", body, format="json").status_code == 200
    review = ContradictionReview.objects.get()

    page = steward.get("/steward/reviews/").content.decode()

    assert review.reason == "retracts “Bob is allergic to peanuts.”"
    assert "Why: retracts “Bob is allergic to peanuts.”" in page and "negativ " not in page


def test_a_bad_verdict_is_shown_inline_and_changes_nothing(steward, writer):
    review = _contradiction(writer)

    answer = steward.post(
        f"/steward/reviews/{review.id}/settle/", {"resolution": "shrug"}, headers={"HX-Request": "true"}
    )

    assert answer.status_code == 400 and 'role="alert"' in answer.content.decode()
    review.refresh_from_db()
    assert review.status == "open" and not AuditEntry.objects.exists()


def test_three_equal_verdicts_propose_a_rule_adopted_from_the_page(steward, writer):
    for city in ("Osaka", "Lyon", "Quito"):
        review = _contradiction(writer, city)
        assert steward.post(f"/steward/reviews/{review.id}/settle/", {"resolution": "retract"}).status_code == 302

    page = steward.get("/steward/reviews/").content.decode()
    assert "Adopt this rule" in page
    proposal_id = page.split('id="proposal-')[1].split('"')[0]

    answer = steward.post(f"/steward/proposals/{proposal_id}/adopt/", headers={"HX-Request": "true"})

    assert answer.status_code == 200 and "Adopted" in answer.content.decode()
    rule = LearnedRule.objects.active().get()
    assert rule.conflict_kind == "fact:residence" and rule.adopted_by.username == "ada"
    assert AuditEntry.objects.filter(action="proposal.adopt").count() == 1
    assert escape(rule.text) in steward.get("/steward/reviews/").content.decode()


def test_settling_takes_a_csrf_token(writer):
    review = _contradiction(writer)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)

    assert browser.post(f"/steward/reviews/{review.id}/settle/", {"resolution": "retract"}).status_code == 403
    review.refresh_from_db()
    assert review.status == "open"

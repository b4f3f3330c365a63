"""Contradictions settled from the room have the effect resolve_contradiction has, and are audited;
three equal verdicts propose a rule, adopted from the page."""

from __future__ import annotations

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

"""Identical verdicts propose a rule; the exact proposed call adopts it; memory://rules lists it."""

from __future__ import annotations

import json

import pytest

from memory.charter.models import LearnedRule, RuleProposal
from memory.charter.selectors import charter_rules
from memory.charter.services import contradiction_resolve
from memory.models import Memory, MemoryHistory
from memory.outbox.models import Notice
from rbac.models import Role
from tests.factories import grant, make_principal

pytestmark = pytest.mark.django_db


def settled(submit, team, owner: str, resolution: str = "retract", city: str = "Osaka") -> dict:
    """One owner's residence stated, then denied, then settled by the writer."""
    old = submit(f"I live in {city}.", user_id=owner)["memory_ids"][0]
    new = submit(f"I don't live in {city}.", user_id=owner)["memory_ids"][0]
    return contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution=resolution)


def proposed(submit, team) -> dict:
    for owner in ("bob", "carol"):
        assert settled(submit, team, owner)["rule_proposal"] is None
    proposal = settled(submit, team, "dave")["rule_proposal"]
    assert proposal is not None
    return proposal


def test_three_identical_verdicts_on_one_kind_of_conflict_propose_a_rule(submit, team):
    proposal = proposed(submit, team)

    assert (proposal["conflict_kind"], proposal["resolution"], proposal["verdicts"]) == ("fact:residence", "retract", 3)
    assert proposal["rule"] == (
        'When a new statement contradicts a stored one on "fact:residence" in workspace "team": '
        "the newer statement replaces the older one (the older is superseded, history kept)."
    )
    call = proposal["adopt_with"]
    assert call["tool"] == "add_memory"
    assert call["arguments"] == {
        "user_id": "charter",
        "group_id": "team",
        "message": f"Adopt charter rule: {proposal['rule']}",
        "metadata": {"charter_rule_proposal": proposal["proposal_id"]},
    }
    delivered = submit("I play the cello.")["pending_outcomes"]
    assert [(n["kind"], n["proposal_id"]) for n in delivered] == [("rule_proposal", proposal["proposal_id"])]
    assert delivered[0]["adopt_with"] == call


def test_verdicts_of_another_resolution_or_kind_do_not_add_up(submit, team):
    settled(submit, team, "bob")
    settled(submit, team, "carol")
    confirmed = settled(submit, team, "dave", resolution="confirm")
    old = submit("I like sushi.", user_id="erin")["memory_ids"][0]
    new = submit("I don't like sushi.", user_id="erin")["memory_ids"][0]
    other_kind = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="retract")

    assert confirmed["rule_proposal"] is None and other_kind["rule_proposal"] is None
    assert RuleProposal.objects.count() == 0


def test_only_the_exact_proposed_call_adopts_the_rule(submit, team):
    arguments = proposed(submit, team)["adopt_with"]["arguments"]

    reworded = submit(**{**arguments, "message": arguments["message"] + " Please."})
    without_metadata = submit(**{**arguments, "metadata": {}})
    other_owner = submit(**{**arguments, "user_id": "bob"})

    assert all("adopted_rule" not in r for r in (reworded, without_metadata, other_owner))
    assert LearnedRule.objects.count() == 0
    assert charter_rules(actor=team["writer"])["learned_rules"] == []


def test_the_exact_call_adopts_a_learned_rule_listed_in_memory_rules(submit, team):
    proposal = proposed(submit, team)
    stored_before = Memory.objects.count()

    adopted = submit(**proposal["adopt_with"]["arguments"])

    rule = adopted["adopted_rule"]
    assert adopted["ok"] is True and adopted["already_adopted"] is False
    assert adopted["memory_ids"] == [] and Memory.objects.count() == stored_before
    assert (rule["text"], rule["resolution"], rule["group_id"]) == (proposal["rule"], "retract", "team")
    assert (rule["adopted_by"], rule["proposal_id"]) == ("writer", proposal["proposal_id"])
    rules = charter_rules(actor=team["writer"])
    assert json.loads(json.dumps([adopted, rules]))[1]["learned_rules"] == [rule]
    assert proposal["rule"] in rules["text"]
    assert submit(**proposal["adopt_with"]["arguments"])["already_adopted"] is True
    assert LearnedRule.objects.count() == 1
    assert not Notice.objects.filter(kind="rule_proposal", retired_at__isnull=True).exists()


def test_a_learned_rule_settles_later_conflicts_of_its_kind_and_the_notice_says_so(submit, team):
    proposal = proposed(submit, team)
    submit(**proposal["adopt_with"]["arguments"])
    old = submit("I live in Osaka.", user_id="erin")["memory_ids"][0]
    new = submit("I don't live in Osaka.", user_id="erin")["memory_ids"][0]

    assert Memory.objects.get(pk=old).valid_to is not None
    history = MemoryHistory.objects.get(memory_id=old)
    assert history.actor == team["writer"] and history.reason.startswith("learned rule ")
    notices = [n for n in submit("I play the cello.")["pending_outcomes"] if n["kind"] == "contradiction_review"]
    assert [(n["from_id"], n["status"], n["resolution"]) for n in notices] == [(new, "settled", "retract")]
    assert "resolve_with" not in notices[0]
    assert notices[0]["settled_by_rule"]["text"] == proposal["rule"]
    again = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="retract")
    assert again["already_settled"] is True and again["settled_by_rule"] == notices[0]["settled_by_rule"]["rule_id"]


def test_memory_rules_states_the_charter_and_shows_learned_rules_only_to_their_readers(submit, team):
    proposal = proposed(submit, team)
    submit(**proposal["adopt_with"]["arguments"])
    admin = make_principal("root", admin=True).user

    charter = charter_rules(actor=team["outsider"])

    assert charter["uri"] == "memory://rules" and charter["mime_type"] == "text/markdown"
    assert [r["id"] for r in charter["rules"]] == ["C1", "C2", "C3", "C4", "C5"]
    assert "DELETE proposed by the decision step runs as SUPERSEDE" in charter["text"]
    assert "confidence below 0.70" in charter["text"]
    assert "`raw_input`" in charter["text"] and "preference, goal or opinion" in charter["text"]
    assert charter["learned_rules"] == [] and "None adopted." in charter["text"]
    assert len(charter_rules(actor=admin)["learned_rules"]) == 1
    assert len(charter_rules(actor=team["viewer"])["learned_rules"]) == 1


def test_the_rule_proposal_goes_to_those_who_gave_verdicts_and_moderators(submit, team):
    moderator = make_principal("mod")
    grant(moderator, team["workspace"], Role.MODERATOR)

    proposal = proposed(submit, team)

    recipients = Notice.objects.filter(subject=f"proposal:{proposal['proposal_id']}")
    assert sorted(n.recipient.username for n in recipients) == ["mod", "writer"]

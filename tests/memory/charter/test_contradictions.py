"""A contradiction raises a review for those who may settle it; resolve_contradiction settles it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from helixsite.errors import ApplicationError
from memory.charter.models import ContradictionReview
from memory.charter.services import contradiction_resolve
from memory.models import Edge, Memory, MemoryHistory
from memory.outbox.models import Notice
from memory.selectors import memory_detail, memory_list
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def contradiction(submit, first: str = "I live in Osaka.", second: str = "I don't live in Osaka.", **options):
    """Store a statement and its denial; the ids of the newer and the older memory."""
    old = submit(first, **options)["memory_ids"][0]
    denial = submit(second, **options)
    assert denial["contradicted"] == [old], denial["decisions"]
    return denial["memory_ids"][0], old


def refusal(call) -> tuple[int, str, str | None]:
    with pytest.raises(ApplicationError) as caught:
        call()
    return caught.value.status, caught.value.code, caught.value.field


def test_a_contradiction_reaches_the_writer_on_the_next_add_once_and_never_an_outsider(submit, team):
    old = submit("I live in Osaka.")["memory_ids"][0]
    denial = submit("I don't live in Osaka.")
    new = denial["memory_ids"][0]

    assert denial["pending_outcomes"] == []  # raised by this add: it arrives with the next one
    review = submit("I play the cello.")["pending_outcomes"]
    assert len(review) == 1
    notice = review[0]
    assert (notice["kind"], notice["status"], notice["conflict_kind"]) == (
        "contradiction_review",
        "open",
        "fact:residence",
    )
    assert (notice["from_id"], notice["to_id"]) == (new, old)
    assert (notice["from_content"], notice["to_content"]) == ("bob does not live in Osaka.", "bob lives in Osaka.")
    assert notice["resolve_with"]["tool"] == "resolve_contradiction"
    assert notice["resolve_with"]["arguments"]["from_id"] == new
    assert notice["resolve_with"]["arguments"]["to_id"] == old
    assert set(notice["resolve_with"]["resolutions"]) == {"confirm", "retract", "preference"}
    assert submit("I play chess.")["pending_outcomes"] == []

    grant(team["outsider"].principal, make_workspace("elsewhere"), Role.WORKER)
    assert submit("I like tea.", actor=team["outsider"], group_id="elsewhere")["pending_outcomes"] == []
    assert sorted(n.recipient.username for n in Notice.objects.filter(kind="contradiction_review")) == ["writer"]


def test_moderators_and_the_owner_may_settle_so_they_hear_of_it_viewers_do_not(submit, team):
    moderator, owner = make_principal("mod"), make_principal("bob")
    grant(moderator, team["workspace"], Role.MODERATOR)
    grant(owner, team["workspace"], Role.WORKER)

    contradiction(submit)

    recipients = Notice.objects.filter(kind="contradiction_review").values_list("recipient__username", flat=True)
    assert sorted(recipients) == ["bob", "mod", "writer"]


def test_an_open_review_surfaces_again_after_the_interval_until_settled(submit, team, settings):
    settings.HELIX_NOTICE_RESURFACE_HOURS = 24
    new, old = contradiction(submit)
    assert [n["delivery"] for n in submit("I play the cello.")["pending_outcomes"]] == [1]
    Notice.objects.update(delivered_at=Notice.objects.get().delivered_at - timedelta(hours=25))

    again = submit("I play chess.")["pending_outcomes"]

    assert [(n["kind"], n["from_id"], n["delivery"]) for n in again] == [("contradiction_review", new, 2)]
    contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="confirm")
    Notice.objects.update(delivered_at=Notice.objects.get().delivered_at - timedelta(hours=25))
    assert submit("I play golf.")["pending_outcomes"] == []


def test_retract_supersedes_the_older_statement_with_history_and_both_stay_reachable(submit, team):
    new, old = contradiction(submit)

    result = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="retract")

    assert json.loads(json.dumps(result))["status"] == "settled"
    assert (result["status"], result["resolution"], result["superseded"]) == ("settled", "retract", [old])
    assert result["already_settled"] is False and result["rule_proposal"] is None
    older = memory_detail(actor=team["writer"], memory_id=old)
    assert older.memory.valid_to is not None
    assert [(str(e.source_id), e.edge_type) for e in older.edges_in if e.edge_type == "SUPERSEDES"] == [
        (new, "SUPERSEDES")
    ]
    history = MemoryHistory.objects.get(memory_id=old)
    assert (history.action, history.actor, history.reason) == (
        "SUPERSEDE",
        team["writer"],
        "resolve_contradiction: retract",
    )
    assert history.details["superseded_by"] == new
    current = {m.content for m in memory_list(actor=team["writer"], user_id="bob")}
    everything = {m.content for m in memory_list(actor=team["writer"], user_id="bob", include_superseded=True)}
    assert current == {"bob does not live in Osaka."}
    assert everything == {"bob does not live in Osaka.", "bob lives in Osaka."}
    # the settled review is retired before it was delivered
    assert submit("I play the cello.")["pending_outcomes"] == []


def test_a_verdict_is_idempotent_and_cannot_be_changed_afterwards(submit, team):
    new, old = contradiction(submit)
    contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="retract")

    again = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="retract")
    changed = refusal(lambda: contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="confirm"))

    assert (again["already_settled"], again["superseded"], again["resolution"]) == (True, [], "retract")
    assert MemoryHistory.objects.filter(memory_id=old).count() == 1
    assert changed == (409, "already_settled", "resolution")


def test_confirm_keeps_both_and_the_contradiction_as_recorded(submit, team):
    new, old = contradiction(submit)

    result = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="confirm")

    assert (result["resolution"], result["superseded"]) == ("confirm", [])
    assert Memory.objects.current().filter(pk__in=[new, old]).count() == 2
    assert Edge.objects.live().filter(source_id=new, target_id=old, edge_type="CONTRADICTS").exists()
    assert ContradictionReview.objects.get().resolved_by == team["writer"]


def test_preference_keeps_both_and_no_longer_links_them_as_contradicting(submit, team):
    new, old = contradiction(submit, "I like sushi.", "I don't like sushi.")

    result = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="preference")

    assert (result["conflict_kind"], result["resolution"]) == ("preference:negation", "preference")
    assert Memory.objects.current().filter(pk__in=[new, old]).count() == 2
    live = set(Edge.objects.live().filter(source_id=new, target_id=old).values_list("edge_type", flat=True))
    assert live == {"RELATES_TO"}
    assert Edge.objects.filter(source_id=new, target_id=old, edge_type="CONTRADICTS", expired_at__isnull=False).exists()


def test_who_may_resolve_and_what_is_refused(submit, team):
    new, old = contradiction(submit)
    unrelated = submit("I play the cello.")["memory_ids"][0]
    moderator = make_principal("mod")
    grant(moderator, team["workspace"], Role.MODERATOR)

    def resolve(actor, from_id=new, to_id=old, resolution="retract"):
        return lambda: contradiction_resolve(actor=actor, from_id=from_id, to_id=to_id, resolution=resolution)

    assert refusal(resolve(team["outsider"])) == (404, "not_found", "from_id")
    assert refusal(resolve(team["writer"], to_id="not-an-id")) == (404, "not_found", "to_id")
    assert refusal(resolve(team["viewer"])) == (403, "forbidden", None)
    assert refusal(resolve(team["writer"], resolution="delete")) == (400, "invalid", "resolution")
    assert refusal(resolve(team["writer"], to_id=unrelated)) == (400, "no_contradiction", "to_id")
    assert refusal(resolve(team["writer"], from_id=old, to_id=new)) == (400, "reversed_pair", "from_id")
    assert Memory.objects.current().filter(pk__in=[new, old]).count() == 2
    assert contradiction_resolve(actor=moderator.user, from_id=new, to_id=old, resolution="retract")["superseded"] == [
        old
    ]


def test_a_contradiction_written_outside_the_agent_surface_can_be_settled_too(add, team):
    old = add("I live in Osaka.")["memory_ids"][0]
    new = add("I don't live in Osaka.")["memory_ids"][0]

    result = contradiction_resolve(actor=team["writer"], from_id=new, to_id=old, resolution="retract")

    assert (result["conflict_kind"], result["superseded"]) == ("fact:residence", [old])
    assert ContradictionReview.objects.get().workspace == team["workspace"]


@pytest.mark.usefixtures("buffered")
def test_a_buffered_contradiction_raises_a_review_for_its_creator(submit, team):
    submit("I live in Osaka.")
    submit("I don't live in Osaka.")

    delivered = submit("I play the cello.")["pending_outcomes"]

    assert [o["kind"] for o in delivered] == ["add_outcome", "contradiction_review"]
    assert delivered[0]["result"]["contradicted"] == [delivered[1]["to_id"]]

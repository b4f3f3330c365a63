"""think_recall reads only what the actor may see and changes nothing; think_commit writes the
conclusion alone and links the cited evidence to it with SUPPORTS edges."""

from __future__ import annotations

import pytest

from memory.fastthink.services import think_add, think_commit, think_conclude, think_discard, think_recall, think_start
from memory.models import Edge, Memory, MemoryAccess
from memory.search.conductor import memory_search
from memory.selectors import memory_detail
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def recall(actor, query: str, **options) -> dict:
    return think_recall(actor=actor, session_id="s", query=query, parent_idx=0, **options)


def test_nothing_of_an_uncommitted_session_is_recalled(team, add):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="Is the vault code QX-5521 still valid?")
    think_add(
        actor=writer, session_id="s", content="The vault code QX-5521 rotates monthly.", thought_type="hypothesis"
    )
    think_conclude(actor=writer, session_id="s", conclusion="The vault code QX-5521 expired in May.")
    think_start(actor=writer, session_id="dropped", initial_thought="Maybe vault code QX-5521 belongs to carol.")
    think_discard(actor=writer, session_id="dropped")
    add("Bob keeps the office keys.", extract=False)

    personal = memory_search(actor=writer, query="vault code QX-5521", user_id="bob")
    everyone = memory_search(actor=writer, query="vault code QX-5521", scope="all")

    assert [r["content"] for r in personal["results"]] == ["Bob keeps the office keys."]
    assert [r["content"] for r in everyone["results"]] == ["Bob keeps the office keys."]
    assert not Memory.objects.filter(content__contains="QX-5521").exists()


def test_recall_without_an_owner_searches_every_memory_the_actor_may_read(team, add):
    bob = add("The staging database is db-7.", extract=False)["memory_ids"][0]
    carol = add("Carol's staging database is db-9.", user_id="carol", extract=False)["memory_ids"][0]
    think_start(actor=team["writer"], session_id="s", initial_thought="Which staging databases exist?")

    everyone = recall(team["writer"], "staging database")
    only_carol = recall(team["writer"], "staging database", user_id="carol")

    assert {bob, carol} <= {t["memory_id"] for t in everyone["recalled"]}
    assert [t["memory_id"] for t in only_carol["recalled"]] == []
    assert [t["memory_id"] for t in only_carol["already_recalled"]] == [carol]


def test_recall_never_brings_in_memories_of_a_workspace_the_actor_cannot_read(team, add):
    secret = make_workspace("secret")
    insider = make_principal("insider")
    grant(insider, secret, Role.WORKER)
    add("The staging database password is kept in vault 12.", actor=insider.user, group_id="secret", extract=False)
    visible = add("The staging database is db-7.", extract=False)["memory_ids"][0]
    think_start(actor=team["writer"], session_id="s", initial_thought="Where is staging?")

    recalled = recall(team["writer"], "staging database password", user_id="bob")
    everyone = recall(team["writer"], "staging database password vault")

    assert [t["memory_id"] for t in recalled["recalled"]] == [visible]
    assert (everyone["recalled"], [t["memory_id"] for t in everyone["already_recalled"]]) == ([], [visible])
    assert "vault 12" not in str(everyone)


def test_recall_changes_no_memory_not_even_its_access_count(team, bob_memories):
    before = {
        m.id: (m.content, m.updated_at, m.valid_to, m.history.count(), _accessed(m)) for m in Memory.objects.all()
    }
    think_start(actor=team["writer"], session_id="s", initial_thought="What is staging?")

    recalled = recall(team["writer"], "staging database deploys", user_id="bob")

    after = {m.id: (m.content, m.updated_at, m.valid_to, m.history.count(), _accessed(m)) for m in Memory.objects.all()}
    assert recalled["count"] >= 2 and after == before


def test_commit_links_only_the_cited_evidence_to_the_conclusion(team, bob_memories):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="When can staging be migrated?")
    recalled = recall(writer, "staging database deploys Fridays", user_id="bob")
    idx = {t["memory_id"]: t["idx"] for t in recalled["recalled"]}
    think_conclude(
        actor=writer,
        session_id="s",
        conclusion="Migrate db-7 on a Friday, with the weekly staging deploy.",
        supporting_idx=[idx[bob_memories["staging"]], idx[bob_memories["fridays"]]],
    )

    committed = think_commit(actor=writer, session_id="s", user_id="bob", group_id="team")

    supports = set(Edge.objects.filter(edge_type="SUPPORTS").values_list("source_id", "target_id"))
    conclusion = Memory.objects.get(pk=committed["memory_id"])
    assert sorted(committed["supported_by"]) == sorted([bob_memories["staging"], bob_memories["fridays"]])
    assert {(str(s), str(t)) for s, t in supports} == {
        (bob_memories["staging"], str(conclusion.id)),
        (bob_memories["fridays"], str(conclusion.id)),
    }
    detail = memory_detail(actor=writer, memory_id=conclusion.id)
    assert {str(e.source_id) for e in detail.edges_in if e.edge_type == "SUPPORTS"} == set(committed["supported_by"])


def test_a_conclusion_without_cited_evidence_gets_no_edges(team, bob_memories):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="What does bob drink?")
    recall(writer, "oat milk flat white", user_id="bob")
    think_conclude(actor=writer, session_id="s", conclusion="Bob orders oat milk flat whites.", supporting_idx=[0])

    committed = think_commit(actor=writer, session_id="s", user_id="bob", group_id="team")

    assert committed["supported_by"] == []
    assert not Edge.objects.filter(edge_type="SUPPORTS").exists()


def test_committing_what_is_already_known_links_the_evidence_to_the_stored_memory(team, bob_memories):
    writer = team["writer"]
    think_start(actor=writer, session_id="s", initial_thought="Anything new about deploys?")
    recalled = recall(writer, "deploys Fridays", user_id="bob")
    fridays = next(t["idx"] for t in recalled["recalled"] if t["memory_id"] == bob_memories["fridays"])
    conclusion = "Schema migrations wait for the weekly release window."
    think_conclude(actor=writer, session_id="s", conclusion=conclusion, supporting_idx=[fridays])
    first = think_commit(actor=writer, session_id="s", user_id="bob", group_id="team")
    think_start(actor=writer, session_id="again", initial_thought="Same question, again.")
    recalled = think_recall(actor=writer, session_id="again", query="deploys Fridays", parent_idx=0, user_id="bob")
    cited = [t["idx"] for t in recalled["recalled"] if t["memory_id"] == bob_memories["staging"]]
    think_conclude(actor=writer, session_id="again", conclusion=conclusion, supporting_idx=cited)

    repeated = think_commit(actor=writer, session_id="again", user_id="bob", group_id="team")

    assert repeated["memory_ids"] == [] and repeated["deduped"] == [first["memory_id"]] == [repeated["memory_id"]]
    assert Memory.objects.filter(content=conclusion, memory_type="conclusion").count() == 1
    sources = Edge.objects.filter(edge_type="SUPPORTS", target_id=first["memory_id"]).values_list(
        "source_id", flat=True
    )
    assert {str(s) for s in sources} == {bob_memories["fridays"], bob_memories["staging"]}


def _accessed(memory: Memory) -> tuple:
    access = MemoryAccess.objects.filter(memory=memory).first()
    return (access.access_count, access.last_accessed_at) if access else (0, None)

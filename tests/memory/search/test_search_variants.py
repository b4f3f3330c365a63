"""Variants of recall: by concept, reasoning chains, connecting two memories, the graph
around a memory, and context packing; none of them reaches outside visibility."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from memory.models import Edge, Memory
from memory.search.conductor import (
    estimate_tokens,
    memory_build_context,
    memory_connect,
    memory_graph,
    memory_reasoning_chain,
    memory_search_by_concept,
)
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(add):
    """bob is vegetarian, so he never orders steak, so he cooks lentils: a causal chain."""
    first = add("I never order steak because I am vegetarian. So I cook a lot of lentils at home.")
    steak, vegetarian, lentils = first["memory_ids"]
    add("I love hiking in the Alps.")
    return {"steak": steak, "vegetarian": vegetarian, "lentils": lentils}


def test_search_by_concept_keeps_only_instances_of_the_concept(team, story):
    found = memory_search_by_concept(
        actor=team["writer"], concept="preference", user_id="bob", query="what does bob like"
    )

    ids = [r["id"] for r in found["results"]]
    assert "bob loves hiking in the Alps." in [r["content"] for r in found["results"]]
    assert Memory.objects.filter(id__in=ids, concepts__name="preference").count() == len(ids)
    assert story["steak"] not in ids and story["lentils"] not in ids


def test_an_unknown_concept_lists_the_concepts(team):
    with pytest.raises(ApplicationError, match="concept must be one of: achievement, action"):
        memory_search_by_concept(actor=team["writer"], concept="gossip", user_id="bob")


def test_reasoning_chains_follow_causes_and_consequences(team, story):
    causal = memory_reasoning_chain(
        actor=team["writer"], query="why does bob never order steak", user_id="bob", direction="causal"
    )
    forward = memory_reasoning_chain(
        actor=team["writer"], query="bob is vegetarian", user_id="bob", direction="forward"
    )

    assert any([s["to"] for s in c["steps"]] == [story["vegetarian"]] for c in causal["chains"])
    consequences = {s["to"] for c in forward["chains"] for s in c["steps"]}
    assert {story["steak"], story["lentils"]} <= consequences


def test_connect_memories_finds_one_typed_path_or_says_there_is_none(team, story, add):
    path = memory_connect(actor=team["writer"], a=story["steak"], b=story["lentils"])

    assert [s["edge"] for s in path["path"]] == ["BECAUSE", "IMPLIES"]
    assert path["to"]["id"] == story["lentils"] and 0 < path["confidence"] <= 1
    unrelated = add("The staging database is db-7.")["memory_ids"][0]
    assert memory_connect(actor=team["writer"], a=story["steak"], b=unrelated)["path"] is None
    by_text = memory_connect(actor=team["writer"], a="bob never orders steak", b="lentils at home", user_id="bob")
    assert by_text["from"]["id"] == story["steak"]


def test_the_graph_around_a_memory_is_bounded(team, story):
    graph = memory_graph(actor=team["writer"], memory_id=story["vegetarian"], depth=1)

    assert {n["id"] for n in graph["nodes"]} == {story["vegetarian"], story["steak"], story["lentils"]}
    assert {(e["type"]) for e in graph["edges"]} == {"BECAUSE", "IMPLIES"}


def test_nothing_in_an_unreadable_workspace_leaks_through_graphs_paths_or_chains(team, story, add):
    secret_ws = make_workspace("secret")
    insider = make_principal("insider")
    grant(insider, secret_ws, Role.WORKER)
    secret = add("The merger codename is Bluefin.", actor=insider.user, group_id="secret")["memory_ids"][0]
    Edge.objects.create(source_id=story["lentils"], target_id=secret, edge_type="IMPLIES")
    Edge.objects.create(source_id=secret, target_id=story["steak"], edge_type="RELATES_TO")

    graph = memory_graph(actor=team["writer"], memory_id=story["lentils"], depth=4)
    chains = memory_reasoning_chain(
        actor=team["writer"], query="bob is vegetarian", user_id="bob", direction="deep", max_depth=6
    )
    context = memory_build_context(actor=team["writer"], query="Bluefin merger codename lentils", user_id="bob")

    assert {n["id"] for n in graph["nodes"]} == {story["vegetarian"], story["steak"], story["lentils"]}
    assert {(e["source"], e["target"]) for e in graph["edges"]} == {
        (story["steak"], story["vegetarian"]),
        (story["vegetarian"], story["lentils"]),
    }
    steps = [s["to"] for c in chains["chains"] for s in c["steps"]]
    assert story["lentils"] in steps and secret not in steps
    assert "lentils" in context["context"] and "Bluefin" not in context["context"]
    with pytest.raises(ApplicationError) as hidden:
        memory_connect(actor=team["writer"], a=story["lentils"], b=secret)
    assert hidden.value.code == "not_found"
    with pytest.raises(ApplicationError):
        memory_graph(actor=team["writer"], memory_id=secret)


# Each of these memories costs about 32 tokens: a budget below one holds none, 800 holds all twelve.
@pytest.mark.parametrize(("budget", "fits"), [(16, 0), (40, 1), (120, 3), (800, 12)])
def test_context_packing_fills_the_budget_and_never_exceeds_it(team, add, budget, fits):
    for n in range(12):
        add(
            f"Service {n} of the billing stack listens on port {9000 + n} and logs to /var/log/billing/{n}.log.",
            extract=False,
        )

    packed = memory_build_context(actor=team["writer"], query="billing stack ports", user_id="bob", token_budget=budget)

    assert packed["tokens"] <= budget
    assert len(packed["memories"]) == fits
    assert estimate_tokens(packed["context"]) <= budget + len(packed["memories"])
    assert sum(m["tokens"] for m in packed["memories"]) == packed["tokens"]
    assert all(f"[{memory['id']}]" in packed["context"] for memory in packed["memories"])


def test_mmr_trades_repetition_for_variety(team, add, settings):
    for n in range(4):
        add(f"The billing service runs on port {9000 + n}.", extract=False)
    add("When the billing service fails it pages the on-call phone +1 555 0100.", extract=False)

    def packed_with(lam: float) -> list[str]:
        settings.HELIX_CONTEXT_MMR_LAMBDA = lam
        packed = memory_build_context(
            actor=team["writer"], query="billing service port", user_id="bob", token_budget=60
        )
        return [m["content"] for m in packed["memories"]]

    assert not any("on-call" in c for c in packed_with(1.0)), "by relevance alone the near-duplicates fill the budget"
    assert any("on-call" in c for c in packed_with(0.3)), "a lower lambda trades repetition for variety"

"""add_memory with an OpenAI-compatible LLM, served over real HTTP by a local test server."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from memory.models import Inference, IngestRun, Memory
from memory.providers import reset_providers
from tests.openai_compatible_server import chat_answer

CHAT = "/v1/chat/completions"
pytestmark = pytest.mark.django_db


@pytest.fixture
def llm_server(llm_server):
    # These tests script the write path's calls; filing by the LLM, after commit, has its own
    # tests (tests/memory/categories/test_filing_with_llm.py).
    with override_settings(HELIX_CATEGORIES_LLM=False):
        yield llm_server


def extraction(*atoms: dict) -> object:
    return chat_answer(json.dumps({"atoms": list(atoms), "relations": []}))


def decision(op: str, confidence: float, *, pick: int = 0):
    """An answer naming the first candidate of the request, as a model would."""

    def answer(request: dict):
        items = json.loads(request["messages"][-1]["content"])["items"]
        target = items[0]["candidates"][pick]["id"] if op != "ADD" else None
        return chat_answer(
            json.dumps(
                {
                    "decisions": [
                        {
                            "index": items[0]["index"],
                            "op": op,
                            "target_id": target,
                            "confidence": confidence,
                            "reason": f"model says {op}",
                        }
                    ]
                }
            )
        )

    return answer


def test_llm_extraction_makes_self_contained_atoms(llm_server, add):
    llm_server.queue(
        CHAT,
        extraction(
            {
                "content": "bob is going to Japan with Maya in April 2027.",
                "type": "goal",
                "entities": [{"name": "Maya", "type": "person"}],
            },
            {
                "content": "bob's favourite food is ramen.",
                "type": "preference",
                "attribute": {"subject": "bob", "name": "favourite food", "value": "ramen"},
            },
        ),
    )

    result = add(
        "next April! and ramen, always ramen",
        context={"previous_assistant": "When are you going, and what will you eat?"},
    )

    assert [d["op"] for d in result["decisions"]] == ["ADD", "ADD"]
    trip = Memory.objects.get(content__startswith="bob is going to Japan")
    assert trip.memory_type == "goal" and trip.entities.get().name == "Maya"
    sent = json.loads(llm_server.requests_to(CHAT)[0]["messages"][-1]["content"])
    assert sent["previous_assistant_turn"] == "When are you going, and what will you eat?"
    run = IngestRun.objects.get(pk=result["run_id"])
    assert run.llm_calls == 1 and run.stages.get(name="extract").output["method"] == "llm"
    assert Inference.objects.get().run_id == run.id


def test_grey_zone_goes_to_one_batched_llm_decision(llm_server, add):
    with override_settings(HELIX_LLM="none"):
        reset_providers()
        add("Our team uses Postgres.")
    reset_providers()
    llm_server.queue(
        CHAT,
        extraction({"content": "Our team uses Postgres 16 with pgvector.", "type": "fact"}),
        decision("UPDATE", 0.9),
    )

    result = add("We run Postgres 16 with pgvector.")

    assert [(d["op"], d["reason"]) for d in result["decisions"]] == [("UPDATE", "model says UPDATE")]
    assert Memory.objects.get().content == "Our team uses Postgres 16 with pgvector."
    assert IngestRun.objects.get(pk=result["run_id"]).llm_calls == 2


def test_a_delete_proposal_runs_as_supersede_and_a_shaky_rewrite_asks_first(llm_server, add):
    with override_settings(HELIX_LLM="none"):
        reset_providers()
        add("Our team uses Postgres.")
        add("The staging database is db-7.")
    reset_providers()
    llm_server.queue(
        CHAT,
        extraction({"content": "Our team uses Postgres 16 with pgvector.", "type": "fact"}),
        decision("DELETE", 0.9),
    )
    llm_server.queue(
        CHAT, extraction({"content": "The production database is db-3.", "type": "fact"}), decision("SUPERSEDE", 0.4)
    )

    deleted = add("Postgres 16 with pgvector now.")
    shaky = add("Production is on db-3.")

    assert deleted["decisions"][0]["op"] == "SUPERSEDE" and deleted["decisions"][0]["reason"].startswith(
        "proposed DELETE"
    )
    assert Memory.objects.filter(content="Our team uses Postgres.", valid_to__isnull=False).exists(), (
        "kept, marked superseded"
    )
    assert shaky["decisions"][0]["op"] == "ADD"
    assert (
        shaky["needs_clarification"][0]["question"]
        == 'Does "The production database is db-3." replace "The staging database is db-7."?'
    )
    assert Memory.objects.current().filter(content="The staging database is db-7.").exists()


def test_malformed_output_twice_falls_back_to_rules_within_two_calls(llm_server, add):
    llm_server.queue(CHAT, chat_answer("Sure! Here are the facts: ..."), chat_answer("{not json"))

    result = add("I live in Lisbon. I have two cats.")

    assert [d["atom"] for d in result["decisions"]] == ["bob lives in Lisbon.", "bob has two cats."]
    run = IngestRun.objects.get(pk=result["run_id"])
    extract_stage = run.stages.get(name="extract").output
    assert extract_stage["method"] == "rules_fallback" and "after one repair" in extract_stage["problem"]
    assert len(llm_server.requests_to(CHAT)) == 2 and run.llm_calls == 2


def test_an_llm_outage_falls_back_to_rules(llm_server, add):
    with override_settings(HELIX_LLM_BASE_URL="http://127.0.0.1:9/v1"):
        reset_providers()
        result = add("I live in Lisbon.")

    assert result["decisions"][0]["op"] == "ADD"
    assert IngestRun.objects.get(pk=result["run_id"]).stages.get(name="extract").output["method"] == "rules_fallback"

"""search_memory over HTTP starts embedding its query once the caller is known and allowed, while
its budget is spent and its arguments are checked; the search takes that embedding instead of
embedding again, and a call refused on the way leaves nothing behind."""

from __future__ import annotations

import os
import threading

import pytest
from django.test import override_settings

import memory.search.conductor
from helixsite.agents.throttle import TokenRateThrottle
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import bearer_client, grant, make_agent_with_token, make_memory, make_workspace

pytestmark = pytest.mark.django_db

QUESTION = {"actor_id": "scout", "user_id": "bob", "query": "what tea does Bob like?"}


@pytest.fixture
def scout():
    """An agent with a token and one memory of bob's to find: its API client."""
    principal, token = make_agent_with_token("scout")
    grant(principal, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    make_memory(
        author=principal, domain=domain, content="Bob's favourite tea is a smoky lapsang souchong.", user_id="bob"
    )
    return bearer_client(token.raw)


def model_idle() -> None:
    """Until every embedding submitted so far has finished: the model's thread runs them in order."""
    memory.search.conductor._query_embedder.submit(lambda: None).result()


@pytest.fixture
def steps(monkeypatch) -> list[str]:
    """What happened, in order: each query embedding submitted to the model, each budget spent."""
    model_idle()
    happened: list[str] = []
    submit, allow = memory.search.conductor._embed_submit, TokenRateThrottle.allow_request

    def embedding(query: str):
        happened.append(f"embed {query}")
        return submit(query)

    def budget(self, request, view):
        happened.append("budget")
        return allow(self, request, view)

    monkeypatch.setattr(memory.search.conductor, "_embed_submit", embedding)
    monkeypatch.setattr(TokenRateThrottle, "allow_request", budget)
    return happened


def test_the_query_is_embedded_once_starting_before_the_budget_is_spent(scout, steps):
    response = scout.post("/api/v1/search_memory", QUESTION, format="json")

    assert response.status_code == 200
    assert [r["content"] for r in response.json()["results"]] == ["Bob's favourite tea is a smoky lapsang souchong."]
    assert steps == ["embed what tea does Bob like?", "budget"]


def test_a_search_asked_as_get_is_prefetched_too(scout, steps):
    response = scout.get("/api/v1/search_memory", QUESTION)

    assert response.status_code == 200 and response.json()["count"] == 1
    assert steps == ["embed what tea does Bob like?", "budget"]


def test_a_call_refused_for_its_arguments_leaves_no_embedding_behind(scout, steps):
    response = scout.post("/api/v1/search_memory", {**QUESTION, "limit": 0}, format="json")

    assert response.status_code == 400 and response.json()["error"]["field"] == "limit"
    assert memory.search.conductor._prefetched.get() is None
    model_idle()
    steps.clear()
    # The next search, even of the same words, embeds its own.
    assert scout.post("/api/v1/search_memory", QUESTION, format="json").status_code == 200
    assert steps == ["embed what tea does Bob like?", "budget"]


def test_a_call_over_its_budget_costs_at_most_the_one_embedding(scout, steps):
    with override_settings(HELIX_API_RATE="1/day"):
        assert scout.post("/api/v1/search_memory", QUESTION, format="json").status_code == 200
        model_idle()
        steps.clear()
        response = scout.post("/api/v1/search_memory", QUESTION, format="json")

    assert response.status_code == 429 and response.json()["error"]["code"] == "throttled"
    assert steps == ["embed what tea does Bob like?", "budget"]
    assert memory.search.conductor._prefetched.get() is None


def test_a_body_that_does_not_parse_is_refused_before_anything_is_embedded(scout, steps):
    response = scout.generic("POST", "/api/v1/search_memory", b'{"query": "tea', content_type="application/json")

    assert response.status_code == 400 and response.json()["ok"] is False
    assert steps == []


def test_while_the_model_is_busy_nothing_is_prefetched_and_the_search_embeds_as_before(scout, steps, monkeypatch):
    monkeypatch.setattr(memory.search.conductor, "_embeddings_pending", 1)

    response = scout.post("/api/v1/search_memory", QUESTION, format="json")

    assert response.status_code == 200 and response.json()["count"] == 1
    assert steps == ["budget", "embed what tea does Bob like?"]


def test_the_thread_that_embeds_queries_yields_the_processor_to_the_request(settings):
    """The request's thread and the database backend it wakes are the search's critical path: the
    model's thread runs HELIX_EMBEDDING_QUERY_NICENESS lower (Linux, where a thread has a priority
    of its own; the only platform the server runs on in CI)."""
    ours = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    theirs = memory.search.conductor._query_embedder.submit(niceness).result()

    assert theirs == min(19, ours + settings.HELIX_EMBEDDING_QUERY_NICENESS) > ours

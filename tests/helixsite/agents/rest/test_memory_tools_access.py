"""Every memory tool over HTTP with the personas: anonymous 401, a token acting as someone
else 403, an outsider refused or shown nothing, a permitted caller 200."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from helixsite.agents.catalogue import tools_by_name
from tests.helixsite.agents.rest.conftest import Agents

pytestmark = pytest.mark.django_db

# tool → (parameters built from the fixture, who may call it, what an outsider gets)
# An outsider is "404" for a memory it cannot see (the same as one that does not exist),
# "empty" where it may ask but sees nothing, "403" where the action needs a role it lacks.
TOOLS: dict[str, tuple[Callable[[Agents], dict[str, Any]], str, str]] = {
    "add_memory": (lambda a: {"user_id": "bob", "message": "Bob prefers tea.", "group_id": "team"}, "writer", "404"),
    "add_conversation": (
        lambda a: {"user_id": "bob", "messages": [{"content": "Bob prefers tea."}], "group_id": "team"},
        "writer",
        "404",
    ),
    "search_memory": (lambda a: {"user_id": "bob", "query": "helm-runner"}, "viewer", "empty"),
    "list_memories": (lambda a: {"user_id": "bob"}, "viewer", "empty"),
    "get_memory": (lambda a: {"memory_id": str(a.memory.id)}, "viewer", "404"),
    "update_memory": (
        lambda a: {"memory_id": str(a.memory.id), "user_id": "bob", "new_content": "Bob deploys with helm-runner 2."},
        "writer",
        "404",
    ),
    "forget_memory": (lambda a: {"memory_id": str(a.memory.id)}, "writer", "404"),
    "get_memory_graph": (lambda a: {"user_id": "bob", "memory_id": str(a.memory.id)}, "viewer", "404"),
    "search_by_concept": (lambda a: {"user_id": "bob", "query": "deploys", "concept_type": "fact"}, "viewer", "empty"),
    "search_reasoning_chain": (lambda a: {"user_id": "bob", "query": "why helm-runner"}, "viewer", "empty"),
    "connect_memories": (
        lambda a: {"user_id": "bob", "query_a": str(a.memory.id), "query_b": str(a.memory.id)},
        "viewer",
        "404",
    ),
    "build_context": (lambda a: {"user_id": "bob", "query": "how does bob deploy"}, "viewer", "empty"),
    "answer_question": (lambda a: {"user_id": "bob", "question": "how does bob deploy"}, "viewer", "empty"),
    "get_profile": (lambda a: {"user_id": "bob"}, "viewer", "empty"),
    "add_document": (
        lambda a: {"user_id": "bob", "title": "Notes", "text": "# Notes\n\nBob ships on Fridays.", "group_id": "team"},
        "writer",
        "404",
    ),
    "get_document": (lambda a: {"document_id": a.document_id}, "viewer", "404"),
    "list_documents": (lambda a: {"user_id": "bob"}, "viewer", "empty"),
    "forget_document": (lambda a: {"document_id": a.document_id}, "writer", "404"),
    "list_categories": (lambda a: {"user_id": "bob"}, "viewer", "empty"),
    "list_users": (lambda a: {}, "root", "403"),
    "restore_memory": (lambda a: {"memory_id": str(a.memory.id)}, "root", "403"),
    "enroll_client": (lambda a: {}, "outsider", "200"),
    "agent_heartbeat": (lambda a: {"agent_id": "helper:1", "status": "indexing"}, "writer", "200"),
    "swarm_status": (lambda a: {"active_window_secs": 600}, "viewer", "200"),
    "agent_farewell": (lambda a: {"agent_id": "writer:main"}, "writer", "404"),
    "think_start": (lambda a: {"session_id": "fresh", "initial_thought": "Where to start?"}, "viewer", "200"),
    "think_add": (lambda a: {"session_id": "plan", "content": "Check the deploy logs."}, "writer", "404"),
    "think_recall": (
        lambda a: {"session_id": "plan", "query": "helm-runner", "parent_idx": 0, "user_id": "bob"},
        "writer",
        "404",
    ),
    "think_conclude": (lambda a: {"session_id": "plan", "conclusion": "helm-runner it is."}, "writer", "404"),
    "think_commit": (lambda a: {"session_id": "decided", "user_id": "bob", "group_id": "team"}, "writer", "404"),
    "think_discard": (lambda a: {"session_id": "plan"}, "writer", "404"),
    "think_status": (lambda a: {"session_id": "plan"}, "writer", "404"),
    "search_incomplete_thoughts": (lambda a: {}, "writer", "empty"),
    "get_add_status": (lambda a: {"pending_id": a.pending_id}, "writer", "404"),
    "resolve_contradiction": (
        lambda a: {"from_id": a.contradiction[0], "to_id": a.contradiction[1], "resolution": "confirm"},
        "writer",
        "404",
    ),
}


# swarm_status's time of answer, a FastThink session's remaining wall clock
CLOCK_READINGS = {"as_of", "seconds_left"}


def test_the_table_covers_every_tool_in_the_catalogue():
    assert set(TOOLS) == set(tools_by_name())


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_each_persona_gets_what_its_role_allows(tool, agents):
    params, who, outsider_gets = TOOLS[tool]
    permitted = {"writer": agents.writer, "viewer": agents.viewer, "root": agents.admin, "outsider": agents.outsider}

    anonymous = APIClient().post(f"/api/v1/{tool}", {"actor_id": "writer", **params(agents)}, format="json")
    impostor = agents.outsider.call(tool, **{**params(agents), "actor_id": "writer"})
    outsider = agents.outsider.call(tool, **params(agents))
    if tool == "restore_memory":
        agents.writer.call("forget_memory", memory_id=str(agents.memory.id))
    allowed = permitted[who].call(tool, **params(agents))

    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthenticated"
    assert impostor.status_code == 403 and impostor.json()["error"]["code"] == "actor_mismatch"
    if outsider_gets == "empty":
        assert outsider.status_code == 200
        listed = [
            outsider.json().get(key)
            for key in ("results", "memories", "seeds", "sessions", "categories", "citations", "profiles", "documents")
        ]
        assert [] in listed and not any(listed)
    else:
        assert outsider.status_code == int(outsider_gets), outsider.json()
        assert outsider.json()["ok"] is (outsider_gets == "200")
    body = outsider.content.decode()
    assert "Bob deploys" not in body and str(agents.memory.id) not in body, "nothing of the team's memory leaks"
    assert agents.document_id not in body, "nor of its documents"
    assert allowed.status_code == 200, allowed.json()
    assert allowed.json()["ok"] is True


@pytest.mark.parametrize("tool", [name for name, api in sorted(tools_by_name().items()) if api.reads])
def test_read_tools_answer_get_with_a_query_string_too(tool, agents):
    params, who, _ = TOOLS[tool]
    caller = {"viewer": agents.viewer, "root": agents.admin, "writer": agents.writer}[who]

    response = caller.call(tool, method="get", **params(agents))

    posted = caller.call(tool, **params(agents)).json()
    assert response.status_code == 200, response.json()
    assert without_clock_readings(response.json()) == without_clock_readings(posted)


def without_clock_readings(answer: Any) -> Any:
    """``answer`` without the values that change between two calls a moment apart."""
    if isinstance(answer, dict):
        return {key: without_clock_readings(value) for key, value in answer.items() if key not in CLOCK_READINGS}
    if isinstance(answer, list):
        return [without_clock_readings(value) for value in answer]
    return answer


def test_write_tools_refuse_get(agents):
    response = agents.writer.call("add_memory", method="get", user_id="bob", message="x")

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"

"""The release contract: what config://helixsite advertises is what tools/list, prompts/list and
resources/list answer; the tools are the catalogue's, with REST's parameters and REST's errors.
The server runs in process here, driven by the SDK's client."""

from __future__ import annotations

import inspect
import json
import re
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp import Client
from rest_framework.test import APIClient

import helixsite
from helixsite.agents.catalogue import tool_classes
from helixsite.agents.mcp.prompts import tool_selection_guide
from helixsite.agents.mcp.server import build_server
from helixsite.agents.mcp.tools import json_schema
from helixsite.agents.openapi import described
from rbac.authentication import token_authenticate
from rbac.policy import SYSTEM
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace

pytestmark = pytest.mark.django_db


def system_caller(ctx: Any) -> SimpleNamespace:
    """The operator: memory://rules lists learned rules by who is asking."""
    return SimpleNamespace(user=SYSTEM)


def surfaces() -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        async with Client(build_server(authenticate=system_caller)) as client:
            resources = await client.list_resources()
            read = {str(r.uri): (await client.read_resource(str(r.uri))).contents[0] for r in resources.resources}
            return {
                "tools": (await client.list_tools()).tools,
                "prompts": (await client.list_prompts()).prompts,
                "resources": resources.resources,
                "read": read,
            }

    return anyio.run(read)


@pytest.fixture(scope="module")
def listed(django_db_setup, django_db_blocker) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return surfaces()


def test_tools_prompts_and_resources_listed_are_those_the_config_resource_advertises(listed):
    config = json.loads(listed["read"]["config://helixsite"].text)

    assert config["tools"] == {"count": len(listed["tools"]), "names": [t.name for t in listed["tools"]]}
    assert config["prompts"] == {"count": len(listed["prompts"]), "names": [p.name for p in listed["prompts"]]}
    assert config["resources"] == {
        "count": len(listed["resources"]),
        "uris": [str(r.uri) for r in listed["resources"]],
    }
    assert config["resources"]["uris"] == ["config://helixsite", "status://database", "memory://rules"]
    assert config["prompts"]["names"] == ["memory_summary", "tool_selection_guide"]


def test_the_tools_are_the_catalogue_in_its_order(listed):
    assert [t.name for t in listed["tools"]] == [tool.tool for tool in tool_classes()]


@pytest.mark.parametrize("tool", tool_classes(), ids=lambda tool: tool.tool)
def test_a_tool_takes_exactly_the_parameters_of_its_rest_endpoint(listed, tool):
    mcp_tool = next(t for t in listed["tools"] if t.name == tool.tool)
    fields = tool.InputSerializer().fields
    schema = mcp_tool.input_schema

    assert set(schema["properties"]) == set(fields)
    assert set(schema.get("required", [])) == {name for name, field in fields.items() if field.required}
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert "$ref" not in json.dumps(schema), "a host gets the whole schema, without references"
    assert mcp_tool.description == described(inspect.getdoc(tool))[1], "the text the OpenAPI document gives"
    assert mcp_tool.annotations.read_only_hint is tool.reads


def test_an_enum_parameter_lists_its_values_in_place(listed):
    search = next(t for t in listed["tools"] if t.name == "search_memory")

    assert search.input_schema["properties"]["scope"]["enum"] == ["personal", "collective", "all"]
    assert search.input_schema["properties"]["scope"]["default"] == "personal"


def test_openapi_nullable_fields_become_json_schema_null_types():
    components = {"schemas": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}}}

    assert json_schema({"type": "string", "nullable": True}, components) == {"type": ["string", "null"]}
    assert json_schema({"type": "string", "enum": ["a"], "nullable": True}, components) == {
        "type": ["string", "null"],
        "enum": ["a", None],
    }
    assert json_schema({"allOf": [{"$ref": "#/components/schemas/Point"}], "nullable": True}, components) == {
        "type": ["object", "null"],
        "properties": {"x": {"type": "number"}},
    }
    assert json_schema({"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": True}, components) == {
        "anyOf": [{"oneOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}]
    }


def test_a_schema_that_refers_to_itself_is_refused_rather_than_inlined_forever():
    components = {
        "schemas": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}}}}
    }

    with pytest.raises(ValueError, match="Node refers to itself"):
        json_schema({"$ref": "#/components/schemas/Node"}, components)


def test_the_config_names_the_version_and_the_backends(listed):
    config = json.loads(listed["read"]["config://helixsite"].text)

    assert config["product"] == "Helixsite"
    assert config["version"] == helixsite.__version__
    assert config["endpoints"]["mcp_http"] == "/mcp"
    assert config["backends"]["database"]["engine"] == "postgresql"
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?", config["backends"]["database"]["pgvector"])
    assert config["backends"]["embeddings"] == {"provider": "local", "model": "all-MiniLM-L6-v2", "dimension": 384}
    assert config["backends"]["llm"] == {"provider": "none", "model": None}


def test_the_database_status_says_reachable_and_migrated_and_nothing_about_anyones_data(listed):
    status = json.loads(listed["read"]["status://database"].text)

    assert status["reachable"] is True
    assert set(status) == {"reachable", "vendor", "server_version", "pgvector", "migrations"}
    assert status["migrations"]["pending"] == [] and status["migrations"]["applied"] > 0


def test_the_rules_resource_is_the_charter(listed):
    rules = listed["read"]["memory://rules"]

    assert rules.mime_type == "text/markdown"
    for rule in (
        "Nothing is destroyed silently",
        "Immutable memories and raw inputs are never rewritten",
        "Preferences, goals and opinions are never merged automatically",
        "confidence below 0.70",
        "## Learned rules",
    ):
        assert rule in rules.text


def test_the_guide_names_only_tools_of_the_catalogue():
    guide = tool_selection_guide(actor_id="writer")
    named = set(re.findall(r"`([a-z]+_[a-z_]+)[(`]", guide))
    catalogue = {tool.tool for tool in tool_classes()}

    assert named <= catalogue
    assert {"add_memory", "search_memory", "think_start", "agent_heartbeat", "resolve_contradiction"} <= named
    assert 'actor_id="writer"' in guide


@pytest.mark.django_db(transaction=True)
def test_a_refused_call_is_the_error_object_rest_answers():
    team = make_workspace("team")
    writer, issued = make_agent_with_token("writer")
    grant(writer, team, "worker")
    make_agent_with_token("reader")
    calls = [
        ("add_memory", {"actor_id": "writer", "user_id": "bob"}),  # message missing
        ("search_memory", {"actor_id": "writer", "user_id": "bob", "query": "x", "limt": 3}),
        ("search_memory", {"actor_id": "reader", "user_id": "bob", "query": "x"}),
        ("get_memory", {"actor_id": "writer", "memory_id": "00000000-0000-0000-0000-000000000000"}),
        ("list_users", {"actor_id": "writer"}),
    ]

    async def over_mcp() -> list[Any]:
        server = build_server(authenticate=lambda ctx: token_authenticate(issued.raw))
        async with Client(server) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    mcp = anyio.run(over_mcp)
    rest: APIClient = bearer_client(issued.raw)

    for (name, arguments), result in zip(calls, mcp, strict=True):
        answer = rest.post(f"/api/v1/{name}", arguments, format="json")
        assert answer.status_code >= 400
        assert result.is_error
        assert result.structured_content == answer.json(), name


@pytest.mark.django_db(transaction=True)
def test_rest_and_mcp_calls_count_against_the_same_token_budget(settings):
    settings.HELIX_API_RATE = "2/minute"
    _, issued = make_agent_with_token("writer")
    listing = {"actor_id": "writer", "user_id": "bob"}

    async def over_mcp() -> Any:
        async with Client(build_server(authenticate=lambda ctx: token_authenticate(issued.raw))) as client:
            return await client.call_tool("list_memories", listing)

    first = anyio.run(over_mcp)
    second = bearer_client(issued.raw).post("/api/v1/list_memories", listing, format="json")
    third = anyio.run(over_mcp)
    fourth = bearer_client(issued.raw).post("/api/v1/list_memories", listing, format="json")

    assert not first.is_error and second.status_code == 200
    assert third.is_error and fourth.status_code == 429
    assert third.structured_content["error"]["code"] == fourth.json()["error"]["code"] == "throttled"
    assert third.structured_content["error"]["message"].startswith("Request was throttled.")

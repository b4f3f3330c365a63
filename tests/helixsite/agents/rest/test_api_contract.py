"""What every endpoint promises: field-level errors, unknown parameters refused, 413 for
oversized bodies, per-token throttling, and an OpenAPI document describing all of it."""

from __future__ import annotations

import pytest
import yaml
from django.test import override_settings
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from helixsite.agents.catalogue import tool_classes
from helixsite.agents.openapi import described
from memory.models import Memory

pytestmark = pytest.mark.django_db


def test_an_unknown_parameter_is_refused_with_its_name(agents):
    response = agents.viewer.call("search_memory", user_id="bob", query="deploy", limt=5)

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"], error["message"]) == ("unknown_parameter", "limt", "Unknown parameter.")


@pytest.mark.parametrize(
    ("params", "field", "code"),
    [
        ({"user_id": "bob", "query": "deploy", "limit": 0}, "limit", "min_value"),
        ({"user_id": "bob", "query": "deploy", "limit": 101}, "limit", "max_value"),
        ({"user_id": "bob", "query": "deploy", "graph_depth": 5}, "graph_depth", "max_value"),
        ({"user_id": "bob"}, "query", "required"),
        ({"user_id": "bob", "query": ""}, "query", "blank"),
        ({"user_id": "bob", "query": "deploy", "mode": "sideways"}, "mode", "unknown_mode"),
        ({"user_id": "bob", "query": "deploy", "category": [{"deeper": "bottom"}]}, "category", "invalid"),
        (
            {"user_id": "bob", "query": "deploy", "time_from": "2026-06-30", "time_to": "2026-06-01"},
            "time_from",
            "inverted_window",
        ),
    ],
)
def test_bad_search_input_names_the_field(agents, params, field, code):
    response = agents.viewer.call("search_memory", **params)

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["code"]) == (field, code)


def test_a_body_that_is_not_a_json_object_is_a_clear_error(agents):
    response = agents.writer.client.post("/api/v1/add_memory", "[1, 2]", content_type="application/json")
    malformed = agents.writer.client.post("/api/v1/add_memory", "{not json", content_type="application/json")

    assert response.status_code == 400 and response.json()["ok"] is False
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "malformed_request"


@override_settings(HELIX_API_RATE="3/minute")
def test_each_token_has_its_own_call_budget(agents):
    answers = [agents.viewer.call("list_memories", user_id="bob").status_code for _ in range(4)]
    other_token = agents.writer.call("list_memories", user_id="bob")

    assert answers == [200, 200, 200, 429]
    assert other_token.status_code == 200
    throttled = agents.viewer.call("list_memories", user_id="bob")
    assert throttled.json()["error"]["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0


def test_list_memories_pages_with_a_cursor(agents):
    for n in range(4):
        agents.writer.call("add_memory", user_id="carol", group_id="team", message=f"Carol owns server {n}0{n}.")

    first = agents.viewer.call("list_memories", user_id="carol", limit=3).json()
    second = agents.viewer.call("list_memories", user_id="carol", limit=3, cursor=first["next_cursor"]).json()

    assert first["count"] == 3 and first["next_cursor"] == 3
    assert second["count"] == 1 and second["next_cursor"] is None
    ids = [m["id"] for m in first["memories"] + second["memories"]]
    assert len(set(ids)) == 4


def test_forget_hides_a_memory_keeps_its_history_and_an_admin_restores_it(agents):
    memory_id = str(agents.memory.id)
    found_before = agents.viewer.call("search_memory", user_id="bob", query="helm-runner").json()

    forgotten = agents.writer.call("forget_memory", memory_id=memory_id, reason="wrong person")
    hidden = agents.viewer.call("get_memory", memory_id=memory_id)
    searched = agents.viewer.call("search_memory", user_id="bob", query="helm-runner").json()
    refused = agents.writer.call("restore_memory", memory_id=memory_id)
    restored = agents.admin.call("restore_memory", memory_id=memory_id, reason="it was right")
    detail = agents.viewer.call("get_memory", memory_id=memory_id).json()

    assert memory_id in [r["id"] for r in found_before["results"]]
    assert forgotten.status_code == 200
    assert hidden.status_code == 404
    assert memory_id not in [r["id"] for r in searched["results"]]
    assert refused.status_code == 403
    assert restored.status_code == 200 and restored.json()["memory"]["deleted_at"] is None
    assert [(h["action"], h["reason"], h["actor"]) for h in detail["history"]] == [
        ("FORGET", "wrong person", "writer"),
        ("RESTORE", "it was right", "root"),
    ]


def test_a_forgotten_memory_is_read_only_when_asked_for_and_only_by_those_who_may_change_it(agents):
    memory_id = str(agents.memory.id)
    agents.writer.call("forget_memory", memory_id=memory_id, reason="wrong person")

    hidden = agents.writer.call("get_memory", memory_id=memory_id)
    asked = agents.writer.call("get_memory", memory_id=memory_id, include_forgotten=True)
    viewer = agents.viewer.call("get_memory", memory_id=memory_id, include_forgotten=True)
    outsider = agents.outsider.call("get_memory", memory_id=memory_id, include_forgotten=True)

    assert hidden.status_code == 404 and viewer.status_code == 404
    assert asked.status_code == 200 and asked.json()["memory"]["deleted_at"] is not None
    assert asked.json()["memory"]["content"] == "Bob deploys with helm-runner."
    assert [(h["action"], h["reason"]) for h in asked.json()["history"]] == [("FORGET", "wrong person")]
    assert outsider.status_code == 404


def test_a_viewer_cannot_forget(agents):
    response = agents.viewer.call("forget_memory", memory_id=str(agents.memory.id))

    assert response.status_code == 403
    assert Memory.objects.get(pk=agents.memory.pk).deleted_at is None


def test_the_openapi_document_describes_every_tool_with_schemas_and_examples(db):
    response = APIClient().get("/api/schema/")

    assert response.status_code == 200
    document = yaml.safe_load(response.content)
    for tool in tool_classes():
        operation = document["paths"][f"/api/v1/{tool.tool}"]["post"]
        assert operation["operationId"] == tool.tool
        body = operation["requestBody"]["content"]["application/json"]
        assert "$ref" in body["schema"], tool.tool
        assert body["examples"], f"{tool.tool} has a request example"
        answer = operation["responses"]["200"]["content"]["application/json"]
        assert "$ref" in answer["schema"] and answer["examples"], f"{tool.tool} has a response schema and example"
        assert {"400", "401", "403", "404", "429"} <= set(operation["responses"])
        assert ("get" in document["paths"][f"/api/v1/{tool.tool}"]) is tool.reads
    assert document["components"]["securitySchemes"]["bearerToken"]["scheme"] == "bearer"


def test_each_summary_is_a_whole_first_sentence_and_no_markup_shows_literally(db):
    document = yaml.safe_load(APIClient().get("/api/schema/").content)
    for tool in tool_classes():
        operation = document["paths"][f"/api/v1/{tool.tool}"]["post"]
        summary, description = operation["summary"], operation["description"]
        first = description.split("\n\n")[0]
        assert first.startswith(summary), tool.tool
        assert summary.endswith((".", "?", "!")) or summary == first, f"{tool.tool}: {summary!r} is cut"
        assert "``" not in description, f"{tool.tool} shows reStructuredText markup"
        assert "\n" not in first, f"{tool.tool}: a line wrapped in the source is joined into its paragraph"


def test_a_docstring_reads_as_markdown_with_its_first_sentence_as_summary():
    doc = "Paged with ``cursor``, e.g. the next page: an\naudit view. Not recall.\n\nTwo kinds:\n- one\n- two"
    assert described(doc) == (
        "Paged with `cursor`, e.g. the next page: an audit view.",
        "Paged with `cursor`, e.g. the next page: an audit view. Not recall.\n\nTwo kinds:\n- one\n- two",
    )


def test_the_schema_is_built_without_a_warning(db, capsys):
    GENERATOR_STATS.reset()
    SchemaGenerator().get_schema(request=None, public=True)
    assert "Warning" not in capsys.readouterr().err


def test_swagger_ui_is_served_with_local_assets(db):
    page = APIClient().get("/api/docs/")
    start_up = APIClient().get(
        "/api/docs/?script"
    )  # its start-up script, a file of its own (the CSP allows no inline one)

    assert page.status_code == 200 and start_up.status_code == 200
    assert "/api/schema/" in start_up.content.decode()
    assert "cdn" not in page.content.decode().lower(), "the UI works offline"


def test_update_memory_naming_the_wrong_owner_is_404_and_changes_nothing(agents):
    response = agents.writer.call(
        "update_memory", memory_id=str(agents.memory.id), user_id="carol", new_content="Bob deploys by hand."
    )

    assert response.status_code == 404 and response.json()["error"]["field"] == "user_id"
    assert Memory.objects.get(pk=agents.memory.pk).content == "Bob deploys with helm-runner."

"""Later values over HTTP: add_memory answers what a message superseded in part, search_memory
labels a successor and what it supersedes, and the OpenAPI document describes both."""

from __future__ import annotations

import pytest
import yaml
from rest_framework.test import APIClient

from rbac.models import Role
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def writer(db) -> Caller:
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return Caller("writer", bearer_client(issued.raw))


def _add(writer: Caller, message: str) -> dict:
    response = writer.call("add_memory", user_id="bob", group_id="team", message=message, extract=False)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_turn_updated_in_part_is_answered_and_labelled(writer):
    turn = _add(writer, "user: Our build takes about twelve minutes. Also, Priya owns the release checklist.")
    answer = _add(writer, "user: The build now takes four minutes since we cached the images.")

    assert answer["superseded_in_part"] == turn["memory_ids"] and answer["superseded"] == []
    assert answer["decisions"][0]["superseded_in_part"] == turn["memory_ids"]
    found = writer.call("search_memory", user_id="bob", query="how long does the build take").json()["results"]
    by_id = {r["id"]: r for r in found}
    successor, predecessor = by_id[answer["memory_ids"][0]], by_id[turn["memory_ids"][0]]
    assert successor["supersedes"] == turn["memory_ids"]
    assert predecessor["superseded_in_part_by"] == answer["memory_ids"] and not predecessor["superseded"]
    assert found.index(successor) < found.index(predecessor)


def test_the_openapi_document_describes_the_new_fields(db):
    document = yaml.safe_load(APIClient().get("/api/schema/").content)

    def fields(tool: str) -> dict:
        answer = document["paths"][f"/api/v1/{tool}"]["post"]["responses"]["200"]["content"]["application/json"]
        name = answer["schema"]["$ref"].rsplit("/", 1)[-1]
        return document["components"]["schemas"][name]["properties"]

    assert "updated a value" in fields("add_memory")["superseded_in_part"]["description"]
    results = fields("search_memory")["results"]
    result = document["components"]["schemas"][results["items"]["$ref"].rsplit("/", 1)[-1]]["properties"]
    assert {"supersedes", "superseded_in_part_by", "superseded_by"} <= set(result)
    assert result["supersedes"]["items"]["format"] == "uuid"

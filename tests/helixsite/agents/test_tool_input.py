"""What no tool accepts, whatever its parameters: text PostgreSQL cannot store (NUL, a lone
surrogate), values nested too deeply, a body too deep to parse. Each is a 400 naming the
field; none is a 500."""

from __future__ import annotations

import json

import pytest

from memory.models import Memory
from rbac.models import Role
from tests.factories import bearer_client, grant, make_agent_with_token, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def writer():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def add(client, raw_body: str):
    return client.post("/api/v1/add_memory", raw_body, content_type="application/json")


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


BASE = {"actor_id": "writer", "user_id": "bob", "group_id": "team", "message": "I sold my boat."}


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({**BASE, "metadata": {"note": "a\x00b"}}, "metadata", "invalid_characters"),
        ({**BASE, "metadata": {"k\x00": 1}}, "metadata", "invalid_characters"),
        ({**BASE, "metadata": {"note": "\ud800"}}, "metadata", "invalid_characters"),
        ({**BASE, "message": "I sold\x00 my boat."}, "message", "invalid_characters"),
        ({**BASE, "user_id": "b\udc00ob"}, "user_id", "invalid_characters"),
        ({**BASE, "metadata": nested(40)}, "metadata", "too_deep"),
        ({**BASE, "context": {"turns": [nested(40)]}}, "context", "too_deep"),
    ],
)
def test_unstorable_or_too_deep_values_are_a_400_naming_the_field(writer, body, field, code):
    answer = add(writer, json.dumps(body))

    assert answer.status_code == 400
    assert (answer.json()["error"]["field"], answer.json()["error"]["code"]) == (field, code)
    assert not Memory.objects.exists()


def test_metadata_nested_within_the_limit_is_stored_and_read_back(writer):
    answer = add(writer, json.dumps({**BASE, "metadata": nested(20)}))

    assert answer.status_code == 200
    assert Memory.objects.get(pk=answer.json()["memory_ids"][0]).metadata == nested(20)


def test_a_body_too_deep_to_parse_is_a_malformed_request(writer):
    answer = add(writer, '{"metadata": ' + "[" * 100_000 + "]" * 100_000 + "}")

    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed_request"


@pytest.mark.parametrize("group_id", ["²", "١٢", "99999999999999999999999"])
def test_a_group_id_of_other_digits_or_too_long_a_number_names_no_workspace(writer, group_id):
    answer = add(writer, json.dumps({**BASE, "group_id": group_id}))

    assert (answer.status_code, answer.json()["error"]["field"]) == (404, "group_id")


def test_a_cursor_past_any_page_is_a_400(writer):
    answer = writer.get("/api/v1/list_memories", {"actor_id": "writer", "user_id": "bob", "cursor": 2**63})

    assert (answer.status_code, answer.json()["error"]["field"]) == (400, "cursor")

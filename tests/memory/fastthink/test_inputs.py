"""Bad arguments are refused with InvalidInput naming the field, and leave the session as it was."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError, InvalidInput
from memory.fastthink.api import (
    SearchIncompleteThoughtsApi,
    ThinkAddApi,
    ThinkCommitApi,
    ThinkConcludeApi,
    ThinkRecallApi,
    ThinkStartApi,
)
from memory.fastthink.selectors import think_status
from memory.fastthink.services import think_add, think_start
from tests.factories import tool_call

pytestmark = pytest.mark.django_db

TOO_LONG = "x" * 4001

BAD_CALLS = {
    "empty initial thought": (ThinkStartApi, {"session_id": "t", "initial_thought": "  "}, "initial_thought"),
    "blank session id": (ThinkStartApi, {"session_id": " ", "initial_thought": "Hi."}, "session_id"),
    "session id too long": (ThinkAddApi, {"session_id": "s" * 201, "content": "Hi."}, "session_id"),
    "empty content": (ThinkAddApi, {"session_id": "s", "content": ""}, "content"),
    "content too long": (ThinkAddApi, {"session_id": "s", "content": TOO_LONG}, "content"),
    "unknown thought type": (
        ThinkAddApi,
        {"session_id": "s", "content": "Hm.", "thought_type": "musing"},
        "thought_type",
    ),
    "conclusion through think_add": (
        ThinkAddApi,
        {"session_id": "s", "content": "Done.", "thought_type": "conclusion"},
        "thought_type",
    ),
    "evidence through think_add": (
        ThinkAddApi,
        {"session_id": "s", "content": "Seen.", "thought_type": "evidence"},
        "thought_type",
    ),
    "unknown parent": (ThinkAddApi, {"session_id": "s", "content": "Hm.", "parent_idx": 7}, "parent_idx"),
    "negative parent": (ThinkAddApi, {"session_id": "s", "content": "Hm.", "parent_idx": -1}, "parent_idx"),
    "parent not a number": (ThinkAddApi, {"session_id": "s", "content": "Hm.", "parent_idx": "first"}, "parent_idx"),
    "recall without parent": (ThinkRecallApi, {"session_id": "s", "query": "db", "parent_idx": None}, "parent_idx"),
    "recall unknown parent": (ThinkRecallApi, {"session_id": "s", "query": "db", "parent_idx": 3}, "parent_idx"),
    "empty query": (ThinkRecallApi, {"session_id": "s", "query": " ", "parent_idx": 0}, "query"),
    "recall limit zero": (ThinkRecallApi, {"session_id": "s", "query": "db", "parent_idx": 0, "limit": 0}, "limit"),
    "recall limit too high": (
        ThinkRecallApi,
        {"session_id": "s", "query": "db", "parent_idx": 0, "limit": 21},
        "limit",
    ),
    "empty conclusion": (ThinkConcludeApi, {"session_id": "s", "conclusion": ""}, "conclusion"),
    "conclusion too long": (ThinkConcludeApi, {"session_id": "s", "conclusion": TOO_LONG}, "conclusion"),
    "supporting out of range": (
        ThinkConcludeApi,
        {"session_id": "s", "conclusion": "Yes.", "supporting_idx": [0, 9]},
        "supporting_idx",
    ),
    "supporting not a list": (
        ThinkConcludeApi,
        {"session_id": "s", "conclusion": "Yes.", "supporting_idx": "0"},
        "supporting_idx",
    ),
    "commit without owner": (ThinkCommitApi, {"session_id": "s", "user_id": ""}, "user_id"),
    "incomplete limit zero": (SearchIncompleteThoughtsApi, {"limit": 0}, "limit"),
}


@pytest.mark.parametrize(("tool", "arguments", "field"), BAD_CALLS.values(), ids=BAD_CALLS.keys())
def test_bad_input_names_the_field_and_changes_nothing(team, tool, arguments, field):
    """As agents call the tools: the door (types, lengths, ranges), then the service."""
    think_start(actor=team["writer"], session_id="s", initial_thought="Start.")

    with pytest.raises(ApplicationError) as refused:
        tool_call(tool, actor=team["writer"], **arguments)

    assert (refused.value.status, refused.value.field) == (400, field)
    status = think_status(actor=team["writer"], session_id="s")
    assert (status["session"]["state"], status["session"]["thought_count"]) == ("thinking", 1)
    assert [t["supporting"] for t in status["thoughts"]] == [False]


def test_a_thought_at_the_length_limit_is_kept_whole(team, settings):
    settings.HELIX_THINK_MAX_CHARS = 200
    think_start(actor=team["writer"], session_id="s", initial_thought="Start.")

    added = think_add(actor=team["writer"], session_id="s", content="y" * 200)

    assert added["thought"]["content"] == "y" * 200
    with pytest.raises(InvalidInput, match="longer than 200 characters"):
        think_add(actor=team["writer"], session_id="s", content="y" * 201)

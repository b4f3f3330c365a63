"""Bad arguments are refused with InvalidInput naming the field, and leave the session as it was."""

from __future__ import annotations

import pytest

from helixsite.errors import InvalidInput
from memory.fastthink.selectors import search_incomplete_thoughts, think_status
from memory.fastthink.services import think_add, think_commit, think_conclude, think_recall, think_start

pytestmark = pytest.mark.django_db

TOO_LONG = "x" * 4001

BAD_CALLS = {
    "empty initial thought": (lambda a: think_start(actor=a, session_id="t", initial_thought="  "), "initial_thought"),
    "blank session id": (lambda a: think_start(actor=a, session_id=" ", initial_thought="Hi."), "session_id"),
    "session id too long": (lambda a: think_add(actor=a, session_id="s" * 201, content="Hi."), "session_id"),
    "empty content": (lambda a: think_add(actor=a, session_id="s", content=""), "content"),
    "content not text": (lambda a: think_add(actor=a, session_id="s", content=42), "content"),
    "content too long": (lambda a: think_add(actor=a, session_id="s", content=TOO_LONG), "content"),
    "unknown thought type": (
        lambda a: think_add(actor=a, session_id="s", content="Hm.", thought_type="musing"),
        "thought_type",
    ),
    "conclusion through think_add": (
        lambda a: think_add(actor=a, session_id="s", content="Done.", thought_type="conclusion"),
        "thought_type",
    ),
    "unknown parent": (lambda a: think_add(actor=a, session_id="s", content="Hm.", parent_idx=7), "parent_idx"),
    "negative parent": (lambda a: think_add(actor=a, session_id="s", content="Hm.", parent_idx=-1), "parent_idx"),
    "parent as text": (lambda a: think_add(actor=a, session_id="s", content="Hm.", parent_idx="0"), "parent_idx"),
    "recall without parent": (
        lambda a: think_recall(actor=a, session_id="s", query="db", parent_idx=None),
        "parent_idx",
    ),
    "recall unknown parent": (lambda a: think_recall(actor=a, session_id="s", query="db", parent_idx=3), "parent_idx"),
    "empty query": (lambda a: think_recall(actor=a, session_id="s", query=" ", parent_idx=0), "query"),
    "recall limit zero": (lambda a: think_recall(actor=a, session_id="s", query="db", parent_idx=0, limit=0), "limit"),
    "empty conclusion": (lambda a: think_conclude(actor=a, session_id="s", conclusion=""), "conclusion"),
    "conclusion too long": (lambda a: think_conclude(actor=a, session_id="s", conclusion=TOO_LONG), "conclusion"),
    "supporting out of range": (
        lambda a: think_conclude(actor=a, session_id="s", conclusion="Yes.", supporting_idx=[0, 9]),
        "supporting_idx",
    ),
    "supporting not a list": (
        lambda a: think_conclude(actor=a, session_id="s", conclusion="Yes.", supporting_idx="0"),
        "supporting_idx",
    ),
    "commit without owner": (lambda a: think_commit(actor=a, session_id="s", user_id=""), "user_id"),
    "incomplete limit zero": (lambda a: search_incomplete_thoughts(actor=a, limit=0), "limit"),
}


@pytest.mark.parametrize(("call", "field"), BAD_CALLS.values(), ids=BAD_CALLS.keys())
def test_bad_input_names_the_field_and_changes_nothing(team, call, field):
    think_start(actor=team["writer"], session_id="s", initial_thought="Start.")

    with pytest.raises(InvalidInput) as refused:
        call(team["writer"])

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

"""What the mem0 import writes for one mem0 memory (``memory.mem0_import.plan``): the door's ids,
the metadata kept, and mem0's history as steps."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from memory.mem0_import.plan import Planned, memory_plan
from memory.mem0_import.store import StoreEntry

NOW = datetime(2026, 6, 1, tzinfo=UTC)
ID = "3b0f4b3e-6a43-4d7c-9a53-0c7f7d0f2a11"


def payload(**fields) -> dict:
    return {
        "data": "I moved to Lisbon.",
        "hash": "…",
        "text_lemmatized": "move lisbon",
        "created_at": "2026-05-01T10:00:00+00:00",
        "updated_at": "2026-05-01T10:00:00+00:00",
        "role": "user",
        **fields,
    }


def event(kind: str, old: str | None, new: str | None, at: str, **fields) -> dict:
    return {
        "id": f"h-{kind}-{at}",
        "memory_id": ID,
        "old_memory": old,
        "new_memory": new,
        "event": kind,
        "created_at": "2026-05-01T10:00:00+00:00",
        "updated_at": at,
        **fields,
    }


def planned(stored: StoreEntry) -> Planned:
    plan = memory_plan(stored, deleted_owner="mem0-deleted", now=NOW)
    assert isinstance(plan, Planned), plan
    return plan


def test_the_ids_are_read_as_the_door_reads_them():
    full = planned(StoreEntry(ID, payload(user_id="alice", agent_id="coach", run_id="run-1", topic="home")))
    agent_only = planned(StoreEntry(ID, payload(agent_id="coach")))
    run_only = planned(StoreEntry(ID, payload(run_id="run-9")))

    assert (full.memory_id, full.owner, full.agent_id) == (uuid.UUID(ID), "alice", "coach")
    assert full.metadata == {"run_id": "run-1", "topic": "home"}
    assert (agent_only.owner, agent_only.agent_id) == ("coach", "coach")
    assert (run_only.owner, run_only.agent_id, run_only.metadata) == ("run-9", "", {"run_id": "run-9"})


def test_who_said_it_is_kept_when_it_is_not_the_owner():
    said = planned(StoreEntry(ID, payload(user_id="bob", role="assistant", actor_id="tutor")))

    assert said.metadata == {"role": "assistant", "actor_id": "tutor"}
    assert said.speaker == "tutor"


def test_history_becomes_steps_at_their_times():
    stored = StoreEntry(
        ID,
        payload(user_id="alice", data="I live in Porto.", updated_at="2026-05-03T09:00:00+00:00"),
        [
            event("ADD", None, "I moved to Lisbon.", "2026-05-01T10:00:00+00:00"),
            event("UPDATE", "I moved to Lisbon.", "I live in Porto.", "2026-05-03T09:00:00+00:00"),
        ],
    )

    plan = planned(stored)

    assert [(s.event, s.text, s.at.isoformat()) for s in plan.steps] == [
        ("ADD", "I moved to Lisbon.", "2026-05-01T10:00:00+00:00"),
        ("UPDATE", "I live in Porto.", "2026-05-03T09:00:00+00:00"),
    ]
    assert plan.steps[1].event_id == "h-UPDATE-2026-05-03T09:00:00+00:00"


def test_a_deleted_memory_keeps_its_history_under_the_deleted_owner():
    stored = StoreEntry(
        ID,
        None,
        [
            event("ADD", None, "I moved to Lisbon.", "2026-05-01T10:00:00+00:00", role="user"),
            event("DELETE", "I moved to Lisbon.", None, "2026-05-02T08:00:00+00:00", role="user"),
        ],
    )

    plan = planned(stored)

    assert (plan.owner, plan.agent_id, plan.metadata, plan.deleted) == ("mem0-deleted", "", {}, True)
    assert [(s.event, s.text) for s in plan.steps] == [("ADD", "I moved to Lisbon."), ("DELETE", "I moved to Lisbon.")]


def test_what_the_store_holds_wins_over_a_history_that_stops_short():
    stored = StoreEntry(
        ID,
        payload(user_id="alice", data="I live in Porto.", updated_at="2026-05-03T09:00:00+00:00"),
        [event("ADD", None, "I moved to Lisbon.", "2026-05-01T10:00:00+00:00")],
    )

    plan = planned(stored)

    assert [(s.event, s.text, s.event_id) for s in plan.steps][1:] == [("UPDATE", "I live in Porto.", None)]


def test_a_memory_gone_from_the_store_without_a_delete_is_forgotten():
    stored = StoreEntry(ID, None, [event("ADD", None, "I moved to Lisbon.", "2026-05-01T10:00:00+00:00")])

    assert planned(stored).deleted


def test_an_id_that_is_no_uuid_is_kept_in_the_metadata():
    plan = planned(StoreEntry("mem-42", payload(user_id="alice")))

    assert plan.memory_id == planned(StoreEntry("mem-42", payload(user_id="alice"))).memory_id
    assert plan.metadata == {"mem0_id": "mem-42"}


def test_a_memory_without_text_or_with_an_overlong_owner_is_left_out():
    assert memory_plan(StoreEntry(ID, payload(user_id="alice", data="  ")), deleted_owner="x", now=NOW) == "no text"
    assert "longer than 200" in str(memory_plan(StoreEntry(ID, payload(user_id="a" * 201)), deleted_owner="x", now=NOW))


def test_an_expiration_date_ends_with_its_day():
    plan = planned(StoreEntry(ID, payload(user_id="alice", expiration_date="2099-12-31")))

    assert plan.expires_at == datetime(2099, 12, 31, 23, 59, 59, tzinfo=UTC)
    assert plan.metadata == {}

"""Event times: every instant that exists from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z
is accepted and read back exactly (occurred_at, expires_at, time_from, time_to, an import's
rows); the database refuses any other, and an installation that stored one before has it
repaired by its migration."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from memory.ingest.bulk import parse_rows
from memory.models import Memory, MemoryHistory
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_memory, make_workspace

pytestmark = pytest.mark.django_db


@dataclass
class Team:
    writer: Caller
    viewer: Caller
    memory: Memory


@pytest.fixture
def agents(db) -> Team:
    """A writer and a viewer of the workspace "team" over HTTP, and one memory about bob."""
    team = make_workspace("team")
    callers = {}
    for name, role in (("writer", Role.WORKER), ("viewer", Role.VIEWER)):
        principal, issued = make_agent_with_token(name)
        grant(principal, team, role)
        callers[name] = Caller(name, bearer_client(issued.raw))
    writer = make_agent_with_token("author")[0]
    grant(writer, team, Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="team")
    memory = make_memory(author=writer, domain=domain, user_id="bob", content="Bob owns a boat.")
    return Team(callers["writer"], callers["viewer"], memory)


UNREADABLE = [
    "9999-12-31T23:59:59-05:00",  # year 10000 in UTC
    "9999-12-31T23:59:59-01:00",
    "0001-01-01T00:00:00+05:00",  # 1 BC in UTC
    "0001-01-01T00:00:00+01:00",
    "0000-12-31T18:59:59-05:00",
]
IMPOSSIBLE = [
    "2024-02-30",
    "2024-02-30T10:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-06-01T25:00:00Z",
    "2024-06-01T10:00:00+25:00",
]


@pytest.mark.parametrize("when", UNREADABLE)
def test_an_unreadable_event_time_is_refused_and_reads_keep_working(agents, when):
    answer = agents.writer.call(
        "add_memory", user_id="bob", group_id="team", message="I sold my boat.", occurred_at=when
    )

    assert answer.status_code == 400
    assert (answer.json()["error"]["code"], answer.json()["error"]["field"]) == ("out_of_range", "occurred_at")
    assert agents.viewer.call("list_memories", "get", user_id="bob").status_code == 200


@pytest.mark.parametrize("when", IMPOSSIBLE)
def test_a_date_that_does_not_exist_is_a_400_naming_the_field(agents, when):
    added = agents.writer.call(
        "add_memory", user_id="bob", group_id="team", message="I sold my boat.", occurred_at=when
    )
    searched = agents.viewer.call("search_memory", "get", user_id="bob", query="boat", time_from=when)
    ended = agents.viewer.call("search_memory", user_id="bob", query="boat", time_to=when)

    assert (added.status_code, added.json()["error"]["field"]) == (400, "occurred_at")
    assert (searched.status_code, searched.json()["error"]["field"]) == (400, "time_from")
    assert (ended.status_code, ended.json()["error"]["field"]) == (400, "time_to")
    assert searched.json()["error"]["code"] == ended.json()["error"]["code"] == "invalid_time"


# Every instant from the first to the last of the range, however it is written.
EDGES = [
    ("0001-01-01T00:00:00Z", datetime(1, 1, 1, tzinfo=UTC)),
    ("0001-01-01", datetime(1, 1, 1, tzinfo=UTC)),
    ("0001-01-01T05:00:00+05:00", datetime(1, 1, 1, tzinfo=UTC)),
    ("9999-12-31T23:59:59Z", datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)),
    ("9999-12-31T23:59:59.999999Z", datetime.max.replace(tzinfo=UTC)),
    ("9999-12-31T18:59:59-05:00", datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)),
    ("9999-12-31", datetime(9999, 12, 31, tzinfo=UTC)),
    ("0000-12-31T23:00:00-05:00", datetime(1, 1, 1, 4, tzinfo=UTC)),  # the last hours of 1 BC, west of UTC
    ("9999-12-31t23:59:59z", datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)),
]


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.parametrize(("when", "instant"), EDGES)
def test_every_instant_of_the_range_is_stored_and_read_back_exactly(agents, when, instant):
    added = agents.writer.call(
        "add_memory", user_id="bob", group_id="team", message="The comet passed.", occurred_at=when, extract=False
    )
    assert added.status_code == 200, added.json()
    memory_id = added.json()["memory_ids"][0]

    got = agents.viewer.call("get_memory", "get", memory_id=memory_id).json()["memory"]
    found = agents.viewer.call("search_memory", "get", user_id="bob", query="comet", time_from=when, time_to=when)

    assert moment(got["valid_from"]) == instant
    assert found.status_code == 200, found.json()
    assert [(r["id"], moment(r["event_date"])) for r in found.json()["results"]] == [(memory_id, instant)]


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ("9999-12-31T23:59:59Z", "I retire tomorrow, next week, in 3 days and next Monday."),
        ("0001-01-01T00:00:00Z", "I was born yesterday, last week, 3 days ago and last Monday."),
    ],
)
def test_relative_dates_said_at_the_ends_of_the_range_are_kept_as_said(agents, when, message):
    added = agents.writer.call("add_memory", user_id="bob", group_id="team", message=message, occurred_at=when)

    assert added.status_code == 200, added.json()
    listed = agents.viewer.call("list_memories", "get", user_id="bob").json()["memories"]
    assert moment(when) in {moment(m["valid_from"]) for m in listed}


def test_a_window_over_the_whole_range_finds_every_event_time(agents):
    for when in ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z"):
        answer = agents.writer.call(
            "add_memory", user_id="bob", group_id="team", message=f"A boat trip at {when}.", occurred_at=when
        )
        assert answer.status_code == 200, answer.json()

    for start, end in (("0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z"), ("0001-01-01", "9999-12-31")):
        found = agents.viewer.call(
            "search_memory", "get", user_id="bob", query="boat trip", time_from=start, time_to=end, limit=10
        )
        assert found.status_code == 200, found.json()
        years = sorted(r["event_date"][:4] for r in found.json()["results"] if r["id"] != str(agents.memory.id))
        assert years == ["0001", "9999"]


def test_the_last_instant_is_a_valid_expiry(agents):
    added = agents.writer.call(
        "add_memory",
        user_id="bob",
        group_id="team",
        message="The lease runs out late.",
        extract=False,
        expires_at="9999-12-31T23:59:59.999999Z",
    )

    got = agents.viewer.call("get_memory", "get", memory_id=added.json()["memory_ids"][0]).json()["memory"]
    assert moment(got["expires_at"]) == datetime.max.replace(tzinfo=UTC)


@pytest.mark.parametrize("when", UNREADABLE)
def test_an_instant_outside_the_range_is_out_of_range_for_every_field(agents, when):
    searches = {
        field: agents.viewer.call("search_memory", "get", user_id="bob", query="boat", **{field: when})
        for field in ("time_from", "time_to")
    }
    expiry = agents.writer.call(
        "add_memory", user_id="bob", group_id="team", message="I sold my boat.", expires_at=when
    )

    for field, answer in (*searches.items(), ("expires_at", expiry)):
        assert answer.status_code == 400
        assert (answer.json()["error"]["code"], answer.json()["error"]["field"]) == ("out_of_range", field)


def test_an_import_row_with_an_impossible_or_unreadable_date_is_reported_not_stored():
    lines = [
        '{"user_id": "bob", "content": "a", "occurred_at": "2024-02-30"}',
        '{"user_id": "bob", "content": "b", "occurred_at": "9999-12-31T23:59:59-05:00"}',
        '{"user_id": "bob", "content": "c", "occurred_at": 20240601}',
        '{"user_id": "bob", "content": "d", "occurred_at": "2024-06-01"}',
        '{"user_id": "bob", "content": "e", "occurred_at": "9999-12-31T23:59:59Z"}',
        '{"user_id": "bob", "content": "f", "occurred_at": "0001-01-01"}',
    ]

    parsed = list(parse_rows(lines, default_group="team"))

    reported = [p[:7] if isinstance(p, str) else p.content for p in parsed]
    assert reported == ["line 1:", "line 2:", "line 3:", "d", "e", "f"]


@pytest.mark.parametrize("stored", ["10000-01-01T00:00:00Z", "0001-12-31T23:59:59.999999Z BC"])
def test_the_database_refuses_an_unreadable_event_time(agents, stored):
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE memory_memory SET valid_from = %s WHERE id = %s", [stored, agents.memory.id])


@pytest.mark.django_db(transaction=True)
def test_the_migration_repairs_a_row_stored_before_with_history():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    memory = make_memory(author=principal, domain=domain, user_id="bob", content="Bob sold his boat.")
    executor = MigrationExecutor(connection)
    executor.migrate([("memory", "0006_memory_access")])
    try:
        with connection.cursor() as cursor:
            cursor.execute("UPDATE memory_memory SET valid_from = '10000-01-01T04:59:59Z' WHERE id = %s", [memory.id])
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

    repaired = Memory.objects.get(pk=memory.id)
    history = MemoryHistory.objects.get(memory=repaired, action="CORRECT")
    assert repaired.valid_from == repaired.created_at
    assert history.details["old_valid_from"].startswith("10000-01-01")
    listed = bearer_client(issued.raw).get("/api/v1/list_memories", {"actor_id": "writer", "user_id": "bob"})
    assert listed.status_code == 200 and listed.json()["memories"][0]["id"] == str(memory.id)

"""Sixteen agents writing at once against two web worker processes: identical writes racing
store one memory, distinct writes racing each store their own. Nothing is lost, nothing is
stored twice, whatever the interleaving."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from memory.models import Memory
from tests.reliability.conftest import CLIENTS, Server, write_together

pytestmark = pytest.mark.slow

RACED = [
    "Ticket HX-4101 is assigned to Priya.",
    "The staging database db-7 runs PostgreSQL 16.",
    "Deploys to production are frozen after 16:00 on Fridays.",
    "The on-call phone number for the payments team is 555-0142.",
    "Build agents in rack 12 use 64 GB of memory.",
    "The invoice service listens on port 8443.",
    "Backups of the billing database are kept for 35 days.",
    "The VPN certificate for the Lisbon office expires on 2027-03-01.",
]
# Alike in wording, apart in fact: a write must not be folded into another one racing it.
DISTINCT = [f"Server app-{n:02d} sits in rack {n + 20} of the Porto data centre." for n in range(CLIENTS)]


def rounds() -> list[list[tuple[str, str]]]:
    """(owner, message) for every client, round by round; the clients of a round start together."""
    return [
        [("bob", message) for message in RACED[:4] for _ in range(4)],  # four copies of each, at once
        [("bob", message) for message in DISTINCT],  # sixteen different facts, at once
        [(owner, message) for message in RACED[4:] for owner in ("bob", "ops") for _ in range(2)],  # two owners
        [("bob", message) for message in RACED[:4] for _ in range(4)],  # the first round again: all stored
    ]


def test_racing_writes_store_each_fact_exactly_once(server: Server):
    before = Memory.objects.count()
    answers = write_together(server, rounds())

    statuses = Counter(status for _, _, status, _ in answers)
    holders: dict[tuple[str, str], set[str]] = defaultdict(set)
    for owner, message, status, answer in answers:
        if status == 200:
            (decision,) = answer["decisions"]  # one statement, one atom
            holders[owner, message].add(decision["memory_id"])
    stored = {owner: set(_listed(server, owner)) for owner in ("bob", "ops")}
    live = {owner: set(_stored_ids(owner)) for owner in ("bob", "ops")}
    found = {message: _found(server, message) for message in RACED[:4]}
    print(
        f"\nconcurrent writes: {len(answers)} add_memory calls by {CLIENTS} clients in {len(rounds())} rounds, "
        f"responses {dict(statuses)}, {len(holders)} distinct (owner, fact) pairs; memory rows "
        f"before {before}, after {Memory.objects.count()}; live per owner "
        f"{ {owner: len(ids) for owner, ids in live.items()} }"
    )

    assert statuses == {200: len(answers)}, [answer for *_, status, answer in answers if status != 200][:3]
    assert len(holders) == len(RACED) + len(DISTINCT) + len(RACED[4:])
    assert all(len(ids) == 1 for ids in holders.values()), "every copy of a fact names the same memory"
    held = [next(iter(ids)) for ids in holders.values()]
    assert len(set(held)) == len(held), "no two facts share a memory"
    for owner in ("bob", "ops"):
        expected = {next(iter(ids)) for (who, _), ids in holders.items() if who == owner}
        assert live[owner] == stored[owner] == expected, owner
    assert Memory.objects.count() - before == len(held)
    for message, contents in found.items():
        assert contents.count(message) == 1, f"search finds {message!r} once: {contents}"


def _listed(server: Server, owner: str) -> list[str]:
    """The ids list_memories shows the writer for ``owner``, every page."""
    ids: list[str] = []
    cursor: int | None = 0
    while cursor is not None:
        page = server.call("list_memories", user_id=owner, limit=200, cursor=cursor).json()
        ids += [memory["id"] for memory in page["memories"]]
        cursor = page["next_cursor"]
    assert len(ids) == len(set(ids))
    return ids


def _found(server: Server, message: str) -> list[str]:
    """The contents search_memory finds for the fact's own words."""
    results = server.call("search_memory", user_id="bob", query=message, limit=20).json()["results"]
    return [result["content"] for result in results]


def _stored_ids(owner: str) -> list[str]:
    """Straight from the table: the owner's live, current memories."""
    return [str(pk) for pk in Memory.objects.current().filter(user_id=owner).values_list("id", flat=True)]

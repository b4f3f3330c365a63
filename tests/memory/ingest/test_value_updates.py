"""A later statement that updates a value supersedes the one it updates, in every mode.

Each row is an earlier statement of a thing's value, a later one that updates it, and a question
about the thing. Each is tried four ways through the real add pipeline (rules, no LLM) and the
real search, as a user would check: both kept verbatim (``extract=false``); the earlier one inside
a longer verbatim turn that says other things too (superseded in part: it stays current); both
extracted (``extract=true``); and the update said by the user in a user–assistant chat stored turn
by turn. The successor must be marked as such and rank above what it updates in a search about
the thing. Controls (another thing, a hypothetical, the assistant's suggestion, a question, a
recollection, code, an addition …) must change nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memory.models import Edge, EdgeType, Memory
from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db


class Update(NamedTuple):
    earlier: str
    later: str
    query: str


UPDATES = [
    Update("Our build takes about twelve minutes.", "The build now takes four minutes since we cached the images.",
           "how long does the build take"),
    Update("The staging database is db-2.", "The staging database is db-3 now.", "which database is staging on"),
    Update("My rent is 1,200 a month.", "My rent is 1,350 a month since the new lease.", "how much is my rent"),
    Update("We deploy on Tuesdays.", "We deploy on Thursdays now.", "which day do we deploy"),
    Update("The API limit is 300 requests per minute.", "The API limit went up to 500 requests per minute.",
           "what is the API limit"),
    Update("The default timeout is 10 seconds.", "The default timeout is now 30 seconds.", "default timeout"),
    Update("The test suite takes 20 minutes.", "The test suite is down to 8 minutes.", "how long does the test suite take"),
    Update("Our standup starts at 9:30.", "Standup starts at 10:00 these days.", "when does standup start"),
    Update("The nightly backup runs at 2am.", "The nightly backup runs at 4am now.", "when does the nightly backup run"),
    Update("The staging cluster is 3 nodes.", "The staging cluster went from 3 nodes to 5.",
           "how many nodes is the staging cluster"),
    Update("My gym membership costs 40 euros a month.", "My gym membership costs 45 euros a month now.",
           "what does my gym membership cost"),
    Update("The monthly AWS bill is about $2,000.", "The monthly AWS bill dropped to $1,400 after the cleanup.",
           "monthly AWS bill"),
    Update("The main branch is called master.", "The main branch is called main now.", "what is the main branch called"),
    Update("The Python version in production is 3.10.", "The Python version in production is 3.12 since the upgrade.",
           "python version in production"),
    Update("The sprint length is two weeks.", "The sprint length is three weeks now.", "sprint length"),
    Update("Our on-call rotation is weekly.", "Our on-call rotation is biweekly now.", "on-call rotation"),
    Update("The Postgres max_connections is 100.", "We bumped the Postgres max_connections to 300.",
           "postgres max_connections"),
    Update("The office opens at 8am.", "The office opens at 9am now.", "when does the office open"),
    Update("The cache TTL is 5 minutes.", "I changed the cache TTL to 15 minutes.", "cache TTL"),
    Update("The docker image is 1.2 GB.", "The docker image is down to 400 MB.", "how big is the docker image"),
    Update("My commute takes 45 minutes.", "My commute takes 25 minutes since I moved.", "how long is my commute"),
    Update("The coffee machine is on the 3rd floor.", "The coffee machine is on the 5th floor now.",
           "where is the coffee machine"),
    Update("Our SLA is 99.9%.", "Our SLA went up to 99.95%.", "what is our SLA"),
    Update("The team lunch is on Fridays.", "The team lunch is on Wednesdays now.", "when is the team lunch"),
    Update("The build server is ravel-07.", "The build server is ravel-09 now.", "which machine is the build server"),
    Update("The ticket backlog is 120 tickets.", "The ticket backlog is no longer 120 tickets, it's down to 45.",
           "how big is the ticket backlog"),
    Update("The review meeting lasts an hour.", "The review meeting lasts 30 minutes now.",
           "how long is the review meeting"),
    Update("My daily step goal is 8,000 steps.", "My daily step goal is 10,000 steps these days.", "daily step goal"),
    Update("The JVM heap is set to 2 GB.", "The JVM heap is set to 4 GB now.", "JVM heap size"),
    Update("The deploy window is 30 minutes.", "The deploy window changed to 45 minutes.", "deploy window"),
    Update("The default model is gpt-4o.", "The default model is claude-sonnet now.", "which is the default model"),
    Update("The interest rate on my loan is 4.5%.", "The interest rate on my loan went down to 3.9%.",
           "interest rate on my loan"),
    Update("The full reindex took about 3 hours.", "The full reindex now takes 40 minutes.",
           "how long does the full reindex take"),
    Update("I pay 60 a month for my phone plan.", "I pay 45 a month for my phone plan now.",
           "how much do I pay for my phone plan"),
    Update("The page size is 50.", "The page size changed from 50 to 100.", "page size"),
]  # fmt: skip

# What a longer turn says beside the value: it stays current when the value is updated.
ASIDES = [
    "Also, the flaky payments test keeps failing on Mondays and I want to look at it with you later.",
    "Separately, Priya is reviewing the onboarding doc this week; remind me to thank her for it.",
    "Anyway, the main thing today is the migration plan, so let's start with the schema changes.",
]
ACKNOWLEDGEMENT = "assistant: Thanks, noted. Tell me if anything about it changes."


def _ranked(owner: str, query: str, team) -> list[dict]:
    return memory_search(actor=team["writer"], query=query, user_id=owner, reinforce=False)["results"]


def _order_problem(successor: str, predecessor: str, query: str, owner: str, team, label: str) -> str | None:
    """What is wrong with the search for ``query``: the successor missing, below the predecessor,
    or unlabelled; None when it is right."""
    results = _ranked(owner, query, team)
    ids = [r["id"] for r in results]
    if successor not in ids:
        return "the successor was not found"
    new = results[ids.index(successor)]
    if predecessor not in new.get("supersedes", []):
        return f"the successor does not list what it supersedes: {new.get('supersedes')}"
    if predecessor in ids:
        if ids.index(predecessor) < ids.index(successor):
            return "the predecessor ranks above its successor"
        if successor not in results[ids.index(predecessor)].get(label, []):
            return f"the predecessor is not labelled {label}"
    return None


def _successor(answer: dict, predecessors: set[str]) -> str | None:
    """The new memory whose decision superseded one of ``predecessors`` (wholly or in part)."""
    for decision in answer["decisions"]:
        if decision["target_id"] in predecessors and decision["op"] == "SUPERSEDE":
            return decision["memory_id"]
        if predecessors & set(decision["superseded_in_part"]):
            return decision["memory_id"]
    return None


def _verbatim_short(update: Update, owner: str, add, team) -> str | None:
    earlier = add(update.earlier, user_id=owner, extract=False)["memory_ids"][0]
    answer = add(update.later, user_id=owner, extract=False)
    if answer["superseded"] != [earlier]:
        return f"superseded {answer['superseded']}, in part {answer['superseded_in_part']}"
    if Memory.objects.get(pk=earlier).valid_to is None:
        return "the earlier memory is still current"
    return _order_problem(answer["memory_ids"][0], earlier, update.query, owner, team, "superseded_by")


def _verbatim_long(update: Update, owner: str, add, team) -> str | None:
    aside = ASIDES[len(owner) % len(ASIDES)]
    earlier = add(f"user: {update.earlier} {aside}", user_id=owner, extract=False)["memory_ids"][0]
    answer = add(f"user: {update.later}", user_id=owner, extract=False)
    if answer["superseded_in_part"] != [earlier] or answer["superseded"]:
        return f"in part {answer['superseded_in_part']}, superseded {answer['superseded']}"
    if Memory.objects.get(pk=earlier).valid_to is not None:
        return "the longer turn is no longer current"
    return _order_problem(answer["memory_ids"][0], earlier, update.query, owner, team, "superseded_in_part_by")


def _extracted(update: Update, owner: str, add, team) -> str | None:
    earlier = set(add(update.earlier, user_id=owner)["memory_ids"])
    answer = add(update.later, user_id=owner)
    successor = _successor(answer, earlier)
    superseded = earlier & set(answer["superseded"])
    if successor is None or not superseded:
        return f"superseded {answer['superseded']}: {[d['op'] + ' ' + d['reason'] for d in answer['decisions']]}"
    return _order_problem(successor, superseded.pop(), update.query, owner, team, "superseded_by")


def _in_a_chat(update: Update, owner: str, add, team) -> str | None:
    earlier = add(f"user: {update.earlier}", user_id=owner, extract=False)["memory_ids"][0]
    assistant = add(ACKNOWLEDGEMENT, user_id=owner, extract=False)["memory_ids"][0]
    add("user: Thanks! Can you also draft the release notes for Friday?", user_id=owner, extract=False)
    answer = add(f"user: {update.later}", user_id=owner, extract=False)
    if answer["superseded"] != [earlier]:
        return f"superseded {answer['superseded']}, in part {answer['superseded_in_part']}"
    if Memory.objects.get(pk=assistant).valid_to is not None:
        return "the assistant's turn was superseded"
    return _order_problem(answer["memory_ids"][0], earlier, update.query, owner, team, "superseded_by")


WAYS = {"verbatim": _verbatim_short, "verbatim_long_turn": _verbatim_long, "extracted": _extracted, "chat": _in_a_chat}


@pytest.mark.parametrize("way", WAYS)
def test_a_later_value_supersedes_the_earlier_and_ranks_above_it(way, add, team):
    wrong = {}
    for n, update in enumerate(UPDATES):
        problem = WAYS[way](update, f"{way}-{n}", add, team)
        if problem:
            wrong[update.later] = problem
    assert wrong == {}


class Control(NamedTuple):
    earlier: str
    later: str


CONTROLS = [
    # another thing
    Control("Our build takes about twelve minutes.", "The deploy now takes four minutes."),
    # a hypothetical
    Control("Our build takes about twelve minutes.", "If the build took four minutes we could ship twice a day."),
    Control("My rent is 1,200 a month.", "My rent will probably be 1,350 a month next year."),
    # the assistant suggesting a value
    Control("user: Our build takes about twelve minutes.",
            "assistant: With layer caching the build now takes about four minutes for most teams."),
    # a question
    Control("The staging database is db-2.", "Is the staging database db-3 now?"),
    Control("user: The default timeout is 10 seconds.", "user: does the default timeout default to 30 seconds now"),
    # a recollection
    Control("The build takes four minutes.", "The build used to take twelve minutes."),
    # code
    Control("The default timeout is 10 seconds.",
            "Here is the config I'm testing:\n```\n# the default timeout is now 30 seconds\ntimeout = 30\n```"),
    # an addition, and a list
    Control("We deploy on Thursdays.", "We also deploy on Mondays."),
    Control("The staging database is db-2.", "The staging databases are db-2 and db-3."),
    # another qualifier
    Control("The build takes twelve minutes on CI.", "The build takes four minutes on my laptop."),
    # the same value said again
    Control("The staging database is db-3.", "The staging database is db-3 now."),
    # a plain present statement of a non-quantity: maybe a second value
    Control("We deploy on Thursdays.", "We deploy on Mondays."),
    # a plain present value of a verb a thing may have several values of
    Control("The billing service runs on port 9000.", "The billing service runs on port 9001."),
    # a denial without a marker: a correction to settle, not an update
    Control("The staging database is db-2.", "The staging database is not db-3."),
    # another speaker of a transcript
    Control("Caroline: My rent is 1,200 a month.", "Melanie: My rent is 900 a month now."),
]  # fmt: skip


def _unchanged(control: Control, owner: str, add) -> str | None:
    earlier = add(control.earlier, user_id=owner, extract=False)["memory_ids"]
    answer = add(control.later, user_id=owner, extract=False)
    touched = set(earlier) & set(answer["superseded"] + answer["superseded_in_part"])
    edges = Edge.objects.filter(edge_type=EdgeType.SUPERSEDES, target_id__in=earlier).count()
    current = Memory.objects.current().filter(pk__in=earlier).count()
    if touched or edges or current != len(earlier):
        return f"touched {touched}, {edges} SUPERSEDES edges, {current} of {len(earlier)} current"
    return None


def test_what_updates_no_value_changes_nothing(add):
    wrong = {c.later: p for n, c in enumerate(CONTROLS) if (p := _unchanged(c, f"control-{n}", add))}

    assert wrong == {}


def test_another_owners_later_value_changes_nothing(add):
    earlier = add("Our build takes about twelve minutes.", user_id="bob", extract=False)["memory_ids"][0]

    answer = add("The build now takes four minutes.", user_id="carol", extract=False)

    assert answer["superseded"] == [] and answer["superseded_in_part"] == []
    assert Memory.objects.get(pk=earlier).valid_to is None


def test_a_value_said_earlier_in_event_time_updates_nothing_said_later(add):
    later = add("The staging database is db-3.", extract=False, occurred_at="2026-06-01T10:00:00Z")

    answer = add("The staging database is db-2 now.", extract=False, occurred_at="2026-05-01T10:00:00Z")

    assert answer["superseded"] == [] and answer["superseded_in_part"] == []
    assert Memory.objects.get(pk=later["memory_ids"][0]).valid_to is None


def test_there_are_thirty_updates_and_twelve_controls_in_varied_wording():
    assert len(UPDATES) >= 30 and len({u.later for u in UPDATES}) == len(UPDATES)
    assert len(CONTROLS) >= 12


def test_a_failure_half_way_leaves_nothing_half_written(add, monkeypatch):
    """The whole supersession of the short statement is written before the edge to the longer
    turn; a failure at that edge undoes both, and the new memory with them."""
    short = add("The staging database is db-2.", extract=False)["memory_ids"][0]
    turn = add(
        "user: The staging database is db-2. Also, Priya owns the migration runbook; ask her before changing it.",
        extract=False,
    )["memory_ids"][0]
    before = set(Memory.objects.values_list("id", flat=True))

    def failing(**edge):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("memory.ingest.apply.edge_add", failing)
    with pytest.raises(RuntimeError):
        add("The staging database is db-3 now.", extract=False)

    assert set(Memory.objects.values_list("id", flat=True)) == before
    assert Memory.objects.current().filter(pk__in=[short, turn]).count() == 2
    assert not Edge.objects.filter(edge_type=EdgeType.SUPERSEDES, target_id__in=[short, turn]).exists()


def test_the_answer_says_what_each_statement_superseded_and_the_run_log_why(add):
    short = add("The staging database is db-2.", extract=False)["memory_ids"][0]
    turn = add("user: The staging database is db-2. Also, Priya owns the migration runbook.", extract=False)
    turn_id = turn["memory_ids"][0]

    answer = add("The staging database is db-3 now.", extract=False)

    assert answer["superseded"] == [short] and answer["superseded_in_part"] == [turn_id]
    [decision] = answer["decisions"]
    assert decision["op"] == "SUPERSEDE" and decision["target_id"] == short
    assert decision["superseded_in_part"] == [turn_id]
    assert "'db-2' is now 'db-3'" in decision["reason"]
    edge = Edge.objects.get(edge_type=EdgeType.SUPERSEDES, target_id=turn_id)
    assert str(edge.source_id) == answer["memory_ids"][0] and "db-3" in edge.reason

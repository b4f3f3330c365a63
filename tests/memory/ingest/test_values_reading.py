"""How the rules read a thing's value from a statement, and which later value updates which.

No database: the reading is plain text to plain values. The hostile inputs at the end are timed
against a wide budget: the reading is linear in what it reads, and reads a bounded head of a
message, so no text within the message limit holds a worker in it.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from memory.ingest.english.values import CHANGED, HeldValue, read_values, replaces

READING_BUDGET_SECONDS = 1.0  # a message at the limit reads in a few milliseconds beside other work


def _key_value(text: str) -> list[tuple[str, str, str]]:
    return [(s.key, s.verb, s.value) for s in read_values(text, "bob") if not s.denied]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("our build takes about twelve minutes", [("build|", "takes", "12 minute")]),
        ("The build now takes four minutes since we cached the images.", [("build|", "takes", "4 minute")]),
        ("the staging database is db-3 now", [("staging database|", "is", "db-3")]),
        ("my rent is 1,200 a month", [("rent|", "is", "1200 month")]),
        ("bob's rent is 1,200 a month", [("rent|", "is", "1200 month")]),
        ("we deploy on Thursdays now", [("we|", "deploy", "on thursday")]),
        ("the API limit went up to 500 requests per minute", [("api limit|", CHANGED, "500 request minute")]),
        ("the default timeout is now 30s", [("default timeout|", "is", "30 second")]),
        ("The build went from twelve minutes to four.", [("build|", CHANGED, "4 minute")]),
        ("We bumped the Postgres max_connections to 300.", [("postgres max_connections|", CHANGED, "300")]),
        ("The build takes 4 minutes on my laptop.", [("build|on laptop", "takes", "4 minute")]),
        ("The interest rate on my loan is 4.5%.", [("interest rate on loan|", "is", "4.5%")]),
        ("Our CI build takes 12 min, and the tests take 2.", [("ci build|", "takes", "12 minute"), ("test|", "takes", "2")]),
        ("user: the standup moved to 10:30", [("standup|", CHANGED, "10:30")]),
        ("The staging database is no longer db-2, it's db-3 now.", [("staging database|", "is", "db-3")]),
        # the value it is, beside the one it is not
        ("Their classes are 2.5 hours, not 2.", [("classe|", "is", "2.5 hour")]),
        ("The standup is on Tuesday, not Monday.", [("standup|", "is", "on tuesday")]),
        # "it" for a thing named in passing, when it gives a quantity
        (
            "I dug out my contract to check the notice period like you said. It's three months, not one.",
            [("notice period|", "is", "3 month")],
        ),
        ("Maggie wants the Q1 charts. Easy, they're in out/2026Q1.", [("q1 chart|", "is", "in out/2026q1")]),
        (
            "Another thing off the Pi: the UniFi controller for our access points. It's now on docker1.",
            [("unifi controller|", "is", "on docker1")],
        ),
        ("We checked the build again. It takes four minutes now.", [("build|", "takes", "4 minute")]),
        # a thing a value was said of keeps "it" over one named in passing after it
        (
            "The build takes twelve minutes. I cached the images. It takes four now.",
            [("build|", "takes", "12 minute"), ("build|", "takes", "4 minute")],
        ),
        ("It's nice to know, dance is still your happy place.", [("dance|", "is", "your happy place")]),
    ],
)  # fmt: skip
def test_a_thing_a_verb_and_a_value_are_read(text, expected):
    assert _key_value(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "assistant: the build now takes four minutes with caching",
        "How long does the build take?",
        "is the staging database db-3 now",
        "If the build took four minutes we could ship twice a day.",
        "The build would take four minutes with a bigger runner.",
        "I think the build takes four minutes now.",
        "The build may take four minutes.",
        "The build used to take twelve minutes.",
        "Back then the build took twelve minutes.",
        "```\nthe build now takes 4 minutes\n```",
        "    timeout = 30  # the default timeout is now 30 seconds",
        "The problem is the cold cache.",
        "The build is failing again.",
        "We deploy on Mondays and Thursdays now.",
        "The staging database is wrong.",
        "The hosts are db-2, db-3.",
        # "it" said of no thing named: not the last one named in passing
        "I went to the studio with my sister. It's been tough.",
        "We talked about the move. It is what it is.",
        "I went to the gym with my sister. It is 40 minutes away.",
    ],
)
def test_no_value_is_read_from_what_states_none(text):
    assert _key_value(text) == []


def test_a_recollection_lends_its_thing_and_unit_to_what_follows():
    [now] = read_values("The build used to take twelve minutes, but now it takes four.")

    assert (now.key, now.value, now.marked) == ("build|", "4 minute", True)


def test_only_the_first_sentences_of_a_turn_are_read():
    filler = " ".join("Point 0 is noted." for _ in range(20))

    assert [s.thing for s in read_values(f"{filler} The build takes four minutes.")] == ["point 0"] * 12


def _held(verb: str, value: str, past: bool = False) -> HeldValue:
    return HeldValue(verb, value, past)


def _said(text: str):
    return read_values(text)[-1]


def test_a_marked_statement_updates_any_other_value_of_the_same_verb_or_a_change():
    assert replaces(_said("The build now takes four minutes."), _held("takes", "12 minute"))
    assert replaces(_said("The build is down to four minutes."), _held("takes", "12 minute"))
    assert not replaces(_said("The build now costs four euros."), _held("takes", "12 minute"))


def test_a_plain_statement_updates_only_another_quantity_said_in_the_present():
    assert replaces(_said("My rent is 1,350 a month."), _held("is", "1200 month"))
    assert not replaces(_said("My rent is 1,350 a month."), _held("is", "1200 month", past=True))
    assert not replaces(_said("We deploy on Mondays."), _held("deploy", "on thursday"))
    assert not replaces(_said("The billing service runs on port 9001."), _held("runs", "on port 9000"))
    assert not replaces(_said("The main branch is main."), _held("is", "master"))


def test_an_addition_the_same_value_and_a_past_value_update_nothing():
    assert not replaces(_said("We also deploy on Mondays now."), _held("deploy", "on thursday"))
    assert not replaces(_said("The staging database is db-3 now."), _held("is", "db-3"))
    assert not replaces(_said("The build took four minutes."), _held("takes", "12 minute"))


def test_a_denial_updates_only_the_value_it_denies_and_only_with_a_marker():
    denied = read_values("The staging database is no longer db-2.")[0]
    plain = read_values("The staging database is not db-2.")[0]

    assert replaces(denied, _held("is", "db-2")) and not replaces(denied, _held("is", "db-9"))
    assert not replaces(plain, _held("is", "db-2"))


# --- hostile text --------------------------------------------------------------------------

BLOCKS = [
    "z", "the build ", "takes ", "is ", "now ", "and ", "from ", "to ", "went up ", "it's ", "no longer ",
    "1,2", "```", "`", "    ", "\n", ", ", ". ", "? ", "user: ", "Assistant: ", "of the ", "on my ", "db-3 ",
    "used to ", "we bumped the ", "Mr. ", "😀", "字", " ",
]  # fmt: skip


def _seconds(text: str) -> float:
    """The least of three readings when one is over the budget: a busy machine is not the reader's cost."""
    costs = []
    for _ in range(3):
        started = time.perf_counter()
        read_values(text, "bob")
        costs.append(time.perf_counter() - started)
        if costs[-1] <= READING_BUDGET_SECONDS:
            break
    return min(costs)


def test_no_message_within_the_limit_holds_the_reading():
    length = settings.HELIX_MAX_MESSAGE_BYTES // 4
    costs = {block: _seconds((block * (length // len(block) + 1))[:length]) for block in BLOCKS}

    assert max(costs.values()) < READING_BUDGET_SECONDS, costs


@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(BLOCKS), st.integers(1, 1500)), min_size=1, max_size=12))
def test_mixed_hostile_messages_read_within_the_budget(parts):
    message = "".join(block * times for block, times in parts)
    message = message.encode()[: settings.HELIX_MAX_MESSAGE_BYTES].decode(errors="ignore")

    assert _seconds(message) < READING_BUDGET_SECONDS


@pytest.mark.parametrize(
    "verb",
    [
        "take", "cost", "last", "run", "start", "begin", "end", "finish", "open", "close", "weigh", "allow",
        "expire", "deploy", "release", "ship", "meet", "pay",
    ],
)  # fmt: skip
def test_a_denied_value_is_read_for_every_verb_in_its_base_form(verb):
    # "The nightly backup does not run on Sundays" stopped the reading (and the message's ingestion)
    # for every verb whose base form is not also one of its present forms.
    [statement] = read_values(f"The nightly backup does not {verb} on Sundays.", "bob")

    assert statement.denied and statement.value == "on sunday"


_PHRASES = ["the backup", "the build", "does not", "did not", "do", "not", "is", "has been", "now", "to", "from"]
_PHRASES += ["take", "run", "start", "last", "end", "open", "takes", "ran", "deploy", "went up", "four", "12 minutes"]


@hypothesis_settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PHRASES), min_size=1, max_size=12))
def test_any_sentence_of_these_phrases_is_read_without_error(phrases):
    read_values(" ".join(phrases) + " on Sundays.", "bob")

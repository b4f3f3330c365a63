"""A value updated in one sentence of a long turn, naming the thing otherwise than the earlier
statement did: no key joins the two and the whole turn is far in meaning from the earlier one, so
the sentence that says the change looks for what it updates by its own meaning (rules, no LLM, the
real model, the real add pipeline and search, verbatim turns in conversations a week apart).
"""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

import pytest
from django.test import override_settings
from django.utils import timezone

from memory.ingest.atoms import Atom
from memory.ingest.candidates import Candidate
from memory.ingest.decide import Decision, Op
from memory.ingest.updates import value_updates
from memory.models import Edge, EdgeType, Memory, MemoryType
from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db

EARLIER_DAY = "2026-03-01T10:00:00Z"
LATER_DAY = "2026-03-08T10:00:00Z"


class Update(NamedTuple):
    earlier: str
    later: str
    query: str


UPDATES = [
    Update(
        "user: Works. Priya asked if it'll be ready for the board review on March 3.",
        "user: Bunch of things. First, the board review is on the 24th now: Priya pulled it forward because of "
        "the audit, so we've lost a week. Second, the parser crashes on empty files. Third, can you look at the "
        "CSV export?",
        "What date is the board review on now?",
    ),
    Update(
        "user: Marta wants the data-center move the weekend of June 14th, FYI.",
        "user: Dry run happened yesterday. Summary: the copy took five hours, two tables failed the checksum, "
        "and the rollback worked. Marta moved the data-center move to June 21st so we can fix the checksums first.",
        "When is the data-center move?",
    ),
    Update(
        "assistant: I'd run the backup timer at 02:00, when nothing else touches the disks.",
        "user: Few things from the weekend. The media scan and the backup were fighting over the disks, so I "
        "moved the backup timer to 04:30. Also the router firmware updated itself and DNS came back fine.",
        "When does the backup timer run?",
    ),
    Update(
        "user: The load test tops out at 800 requests per second.",
        "user: Good news and bad news. After the connection pool fix the load test is up to 1,400 requests per "
        "second. The bad news: memory climbs steadily and the pod restarts after an hour.",
        "How many requests per second does the load test handle?",
    ),
]


def _add_pair(add, owner: str, earlier: str, later: str, *, later_day: str = LATER_DAY) -> tuple[str, dict]:
    first = add(earlier, user_id=owner, extract=False, occurred_at=EARLIER_DAY)["memory_ids"][0]
    return first, add(later, user_id=owner, extract=False, occurred_at=later_day)


def _problem(update: Update, owner: str, add, team) -> str | None:
    earlier, answer = _add_pair(add, owner, update.earlier, update.later)
    later = answer["memory_ids"][0]
    if answer["superseded_in_part"] != [earlier] or answer["superseded"]:
        return f"in part {answer['superseded_in_part']}, superseded {answer['superseded']}"
    if Memory.objects.get(pk=earlier).valid_to is not None:
        return "the earlier memory is no longer current"
    results = memory_search(actor=team["writer"], query=update.query, user_id=owner, reinforce=False)["results"]
    ids = [r["id"] for r in results]
    if later not in ids:
        return "the later turn was not found"
    if earlier in ids[: ids.index(later)]:
        return "the earlier memory ranks above the later turn"
    if earlier not in results[ids.index(later)].get("supersedes", []):
        return "the later turn does not list what it supersedes"
    if earlier in ids and later not in results[ids.index(earlier)].get("superseded_in_part_by", []):
        return "the earlier memory is not labelled superseded_in_part_by"
    return None


def test_a_sentence_of_a_long_turn_supersedes_in_part_what_it_updates(add, team):
    wrong = {u.later[:60]: p for n, u in enumerate(UPDATES) if (p := _problem(u, f"long-{n}", add, team))}

    assert wrong == {}


def test_the_edge_says_which_sentence_and_how_near(add):
    update = UPDATES[0]
    earlier, answer = _add_pair(add, "reason", update.earlier, update.later)

    edge = Edge.objects.get(edge_type=EdgeType.SUPERSEDES, target_id=earlier)
    assert str(edge.source_id) == answer["memory_ids"][0]
    assert "the board review is on the 24th now" in edge.reason and "nearby in meaning" in edge.reason
    [decision] = answer["decisions"]
    assert decision["op"] == "ADD" and decision["superseded_in_part"] == [earlier]


class Control(NamedTuple):
    earlier: str
    later: str
    later_day: str = LATER_DAY


BOARD_REVIEW = UPDATES[0]
CONTROLS = [
    # said in the same conversation: the turn before is context, not an earlier state
    Control(BOARD_REVIEW.earlier, BOARD_REVIEW.later, "2026-03-01T10:05:00Z"),
    # said by the assistant: an answer reports no change in the owner's world
    Control(
        BOARD_REVIEW.earlier,
        "assistant: Two notes. In most teams the board review is on the 24th now, after the audit. Second, "
        "the parser should skip empty files.",
    ),
    # another speaker of a transcript
    Control(
        "Caroline: The school fair is on March 3.",
        "Melanie: Busy week here. The school fair moved to the 24th now, which clashes with my exam. Also my "
        "car is in the garage again.",
    ),
    # the earlier statement gives no value
    Control(
        "user: Priya owns the board review deck and sends it around.",
        BOARD_REVIEW.later,
    ),
    # the sentence of change gives no value
    Control(
        BOARD_REVIEW.earlier,
        "user: Bunch of things. The board review moved to the big meeting room now. Second, the parser crashes "
        "on empty files.",
    ),
    # a change of something else, far in meaning
    Control(
        BOARD_REVIEW.earlier,
        "user: Couple of updates. The office moved to the 5th floor on Monday. Also the printer works again.",
    ),
    # a turn of one sentence: compared whole, by the other rules (not superseded in part here)
    Control(
        "user: Our standup starts at 9:30 every day.",
        "user: Standup is at 10:00 now because half the team moved to Lisbon.",
    ),
]


def _touched(control: Control, owner: str, add) -> str | None:
    earlier, answer = _add_pair(add, owner, control.earlier, control.later, later_day=control.later_day)
    edges = Edge.objects.filter(edge_type=EdgeType.SUPERSEDES, target_id=earlier, reason__contains="nearby").count()
    if edges or earlier in answer["superseded_in_part"]:
        return f"{edges} edges; in part {answer['superseded_in_part']}"
    return None


def test_what_is_not_a_later_value_of_the_same_thing_changes_nothing(add):
    wrong = {c.later[:60]: p for n, c in enumerate(CONTROLS) if (p := _touched(c, f"control-{n}", add))}

    assert wrong == {}


def test_the_setting_at_one_turns_it_off(add):
    with override_settings(HELIX_INGEST_UPDATE_SIMILARITY=1.0):
        earlier, answer = _add_pair(add, "off", BOARD_REVIEW.earlier, BOARD_REVIEW.later)

    assert answer["superseded_in_part"] == []
    assert not Edge.objects.filter(target_id=earlier, edge_type=EdgeType.SUPERSEDES).exists()


LONG_TURN = (
    "user: Lunch break update, lots happening. The agency wants a second round: a panel with their VP of "
    "Growth and someone from finance, next Thursday. My recruiter went on leave, so a colleague of hers is "
    "handling my process now. And I had coffee with a friend who is a pricing manager in Bristol; she said "
    "my number should be higher than the one I gave. Also, I love jazz, it keeps me calm through all this."
)


def test_a_thing_a_long_turn_names_in_passing_is_not_what_a_later_change_ends(add):
    turn = add(LONG_TURN, extract=False)["memory_ids"][0]
    assert Memory.objects.get(pk=turn).memory_type == "raw"

    for later in ("user: Back to work, lunch is over.", "user: I no longer have a recruiter, the agency does it all."):
        answer = add(later, extract=False)
        assert answer["superseded"] == [] and answer["superseded_in_part"] == [], later
    assert Memory.objects.current().filter(pk=turn).exists()


def test_a_rule_superseding_a_turn_kept_whole_supersedes_it_in_part():
    """Whoever proposed it (an LLM's SUPERSEDE of a long turn): the turn says other things too, which
    still hold; it stays current, superseded in part, and the new statement is stored beside it."""
    said = timezone.now()
    turn = Memory(content=LONG_TURN, memory_type=MemoryType.RAW, valid_from=said - timedelta(days=7), facets={})
    short = Memory(content="user: I love jazz.", memory_type=MemoryType.FACT, valid_from=turn.valid_from, facets={})
    atom = Atom(content="user: I can't stand jazz anymore.")
    for target, whole in ((turn, False), (short, True)):
        proposed = Decision(Op.SUPERSEDE, Candidate(target, 0.8), 0.9, "the other side on jazz", "llm")

        [decision], [beside] = value_updates(
            atoms=[atom],
            candidates=[[Candidate(target, 0.8)]],
            nearest=[[]],
            decisions=[proposed],
            owner="ada",
            said_at=said,
        )

        if whole:
            assert decision == proposed and beside == []
        else:
            assert decision.op == Op.ADD and [(u.target.memory, u.whole) for u in beside] == [(turn, False)]

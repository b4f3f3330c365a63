"""A memory keeps what its owner said just before, in the same conversation; recall matches a
question against it at a lower weight."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings

from memory.api.read import GetMemoryApi
from memory.models import IngestRun, Memory
from memory.search.conductor import memory_search
from tests.factories import make_workspace, tool_call

pytestmark = pytest.mark.django_db


def stored(answer: dict) -> Memory:
    return Memory.objects.get(id=answer["memory_ids"][0])


def test_a_message_keeps_the_one_its_owner_sent_just_before(add):
    add("Melanie: What did you research last week?", extract=False)
    answer = add("Caroline: Adoption agencies, mostly.", extract=False)

    assert stored(answer).context == "Melanie: What did you research last week?"


def test_the_first_message_has_nothing_before_it(add):
    assert stored(add("Caroline: Hello there!", extract=False)).context == ""


def test_another_owner_or_workspace_is_another_conversation(team, add):
    make_workspace("other")
    add("Someone else's question about research?", user_id="alice", extract=False)

    assert stored(add("Caroline: Adoption agencies, mostly.", extract=False)).context == ""


def test_a_message_sent_after_the_gap_starts_a_new_conversation(add):
    add("Melanie: What did you research last week?", extract=False)
    IngestRun.objects.update(started_at=IngestRun.objects.get().started_at - timedelta(hours=1))

    assert stored(add("Caroline: Adoption agencies, mostly.", extract=False)).context == ""


def test_event_times_far_apart_are_different_sessions(add):
    add("Melanie: What did you research?", extract=False, occurred_at="2023-05-08T13:56:00Z")

    later = add("Caroline: Adoption agencies, mostly.", extract=False, occurred_at="2023-05-25T10:00:00Z")
    same = add("Melanie: Wow, tell me more.", extract=False, occurred_at="2023-05-25T10:00:00Z")

    assert stored(later).context == ""
    assert stored(same).context == "Caroline: Adoption agencies, mostly."


def test_the_conversation_a_client_sends_wins(add):
    add("Melanie: What did you research?", extract=False)

    answer = add("Adoption agencies.", extract=False, context="Which agencies did you look at?")

    assert stored(answer).context == "Which agencies did you look at?"


@override_settings(HELIX_CONVERSATION_GAP_SECONDS=0)
def test_a_gap_of_zero_keeps_nothing(add):
    add("Melanie: What did you research?", extract=False)

    assert stored(add("Caroline: Adoption agencies, mostly.", extract=False)).context == ""


def test_extracted_atoms_keep_the_message_before_them(add):
    add("What did you do on the weekend?", extract=False)

    answer = add("I went hiking in the Alps with my sister.")

    assert {m.context for m in Memory.objects.filter(id__in=answer["memory_ids"])} == {
        "What did you do on the weekend?"
    }


def test_get_memory_reads_it_back(team, add):
    add("Melanie: What did you research?", extract=False)
    answer = add("Caroline: Adoption agencies, mostly.", extract=False)

    body = tool_call(GetMemoryApi, actor=team["writer"], memory_id=answer["memory_ids"][0])

    assert body["memory"]["context"] == "Melanie: What did you research?"


def answer_rank(actor, query: str, answer: str) -> int | None:
    results = memory_search(actor=actor, query=query, user_id="bob", limit=10)["results"]
    return next((n for n, r in enumerate(results, start=1) if r["content"] == answer), None)


@override_settings(HELIX_SEARCH_SEEDS="bm25")
def test_an_answer_is_found_by_the_words_of_its_question(team, add):
    for n in range(30):
        add(f"Caroline: I had a lovely lunch with friend {n} at the harbour cafe.", extract=False)
        add(f"Melanie: The kids painted picture number {n} today.", extract=False)
    add("Melanie: Which adoption agencies did you research, Caroline?", extract=False)
    add("Caroline: Three of them so far, and two felt right for us.", extract=False)
    answer = "Caroline: Three of them so far, and two felt right for us."
    question = "What adoption agencies were researched?"

    with override_settings(HELIX_SEARCH_CONTEXT_WEIGHT=0.0):
        assert answer_rank(team["writer"], question, answer) is None  # none of its own words is asked for
    assert answer_rank(team["writer"], question, answer) in (1, 2)  # beside the question itself


@override_settings(HELIX_SEARCH_SEEDS="bm25")
def test_a_long_unrelated_line_before_a_memory_does_not_dilute_its_own_words(team, add):
    """BM25F: each field is measured by its own length, so what was said before a memory weighs
    only where it holds the question's words."""
    long_line = "Melanie: The weather was grey again, traffic on the ring road crawled, and the office printer jammed."
    plain = add("Caroline: We adopted a greyhound from the shelter.", extract=False, user_id="alice")
    after = add("Caroline: We adopted a greyhound from the shelter.", extract=False, context=long_line)

    def bm25_of(owner: str, answer: dict) -> float:
        results = memory_search(actor=team["writer"], query="adopted greyhound", user_id=owner, limit=5)["results"]
        return next(r["signals"]["bm25"] for r in results if r["id"] == answer["memory_ids"][0])

    assert stored(after).context == long_line and stored(plain).context == ""
    assert bm25_of("bob", after) == pytest.approx(bm25_of("alice", plain))


@override_settings(HELIX_SEARCH_SEEDS="bm25")
def test_what_was_said_before_counts_less_as_a_memory_says_more(team, add):
    """A short message needs what was said before it to be understood; a long one stands on its
    own, so the same words said before it count for less (HELIX_SEARCH_CONTEXT_HALF_LENGTH)."""
    asked = "Melanie: I researched the adoption agencies."
    short = add("Caroline: Three so far.", extract=False, context=asked)
    long = add(
        "Caroline: Three so far, though honestly most of this week went into the garden, repainting the "
        "fence, sorting the garage, fixing the bike's brakes and planning the kids' summer camp schedule.",
        extract=False,
        context=asked,
    )

    def bm25_of(answer: dict) -> float:
        found = memory_search(actor=team["writer"], query="adoption agencies research", user_id="bob", limit=5)
        return next(r["signals"]["bm25"] for r in found["results"] if r["id"] == answer["memory_ids"][0])

    with override_settings(HELIX_SEARCH_CONTEXT_HALF_LENGTH=0):
        assert bm25_of(long) == pytest.approx(bm25_of(short))  # the context alone, at full weight
    assert bm25_of(long) < 0.5 * bm25_of(short)


@override_settings(HELIX_SEARCH_SEEDS="bm25")
def test_a_reply_to_a_question_keeps_the_question_at_full_weight_however_long(team, add):
    """ "It's about loss, identity and connection" answers "Is that your third screenplay?": what it is
    about was said only in the question (HELIX_SEARCH_REPLY_CONTEXT). An assistant's answer to the
    owner's question stands on its own words."""
    asked = "Melanie: Which adoption agencies did you research?"
    short = add("Caroline: Three so far.", extract=False, context=asked)
    reply = (
        "Three so far, though honestly most of this week went into the garden, repainting the "
        "fence, sorting the garage, fixing the bike's brakes and planning the kids' summer camp schedule."
    )
    long = add(f"Caroline: {reply}", extract=False, context=asked)
    assistant = add(f"assistant: {reply}", extract=False, context=asked)

    def bm25_of(answer: dict) -> float:
        found = memory_search(actor=team["writer"], query="adoption agencies research", user_id="bob", limit=5)
        return next(r["signals"]["bm25"] for r in found["results"] if r["id"] == answer["memory_ids"][0])

    assert bm25_of(long) == pytest.approx(bm25_of(short))
    assert bm25_of(assistant) < 0.5 * bm25_of(short)
    with override_settings(HELIX_SEARCH_REPLY_CONTEXT=False):
        assert bm25_of(long) < 0.5 * bm25_of(short)

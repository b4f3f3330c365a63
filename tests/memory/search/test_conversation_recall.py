"""Recall on conversations: the time a question names, and who said a line of a transcript."""

from __future__ import annotations

import copy
import uuid
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from memory.ingest.extract import speaker_label
from memory.models import Memory
from memory.search.conductor import memory_search
from memory.search.dates import named_time
from memory.search.scope import Scope
from memory.search.speakers import FIRST_NAME, speakers_named, without_speakers


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "inside", "outside"),
    [
        ("What did Gina find for her store on 1 February, 2023?", "2023-02-01", "2023-02-10"),
        ("What did Gina find on February 1st, 2023?", "2023-01-30", "2023-01-20"),
        ("What cake did Joanna make in May 2022?", "2022-05-31", "2022-06-15"),
        ("What did John do the week before August 3, 2023?", "2023-07-28", "2023-08-10"),
        ("Which event did John organise in 2024?", "2024-11-30", "2023-12-30"),
        ("notes of 2023-03-14", "2023-03-15", "2023-04-14"),
    ],
)
def test_a_time_the_question_names_is_a_span_of_event_time(query, inside, outside):
    named = named_time(query)

    assert named is not None
    assert named.contains(day(inside)) and not named.contains(day(outside))


@pytest.mark.parametrize(
    "query", ["Where does Caroline live?", "What may I bring?", "meeting on 2024-02-30", "room 2023 is booked"]
)
def test_a_question_that_names_no_time_has_none(query):
    assert named_time(query) is None


@pytest.mark.parametrize(
    ("message", "speaker", "said"),
    [
        ("Caroline: I went to a support group.", "Caroline", "I went to a support group."),
        ("Dr. Ana Ruiz: I prescribe it daily.", "Dr. Ana Ruiz", "I prescribe it daily."),
        ("User: I live in Osaka.", None, "I live in Osaka."),
        ("Note: the build is green.", None, "Note: the build is green."),
        ("I moved: it was time.", None, "I moved: it was time."),
        ("see https://example.org for more", None, "see https://example.org for more"),
    ],
)
def test_a_line_of_a_transcript_names_its_speaker(message, speaker, said):
    assert speaker_label(message) == (speaker, said)


@pytest.mark.django_db
def test_a_transcript_line_is_about_its_speaker(add):
    answer = add("Caroline: I went to a support group yesterday.", occurred_at="2023-05-08")

    memory = Memory.objects.get(id=answer["memory_ids"][0])
    assert memory.content == "Caroline went to a support group yesterday (2023-05-07)."
    assert memory.facets["speaker"] == "Caroline"


@pytest.mark.django_db
@pytest.mark.parametrize("extract", [False, True])
def test_the_assistants_turn_is_said_by_the_assistant_and_the_users_by_no_other_speaker(add, extract):
    said = add("assistant: I would cache the Docker layers in the registry.", extract=extract)
    own = add("user: I moved to Lisbon in March.", extract=extract)

    assert {m.facets.get("speaker") for m in Memory.objects.filter(id__in=said["memory_ids"])} == {"assistant"}
    assert {m.facets.get("speaker") for m in Memory.objects.filter(id__in=own["memory_ids"])} == {None}


def results(actor, query: str) -> list[dict]:
    return memory_search(actor=actor, query=query, user_id="bob", limit=5)["results"]


@pytest.mark.django_db
def test_the_line_said_in_the_time_the_question_names_comes_first(team, add):
    add("Gina: I found a new supplier for the shop today!", extract=False, occurred_at="2023-01-10")
    add("Gina: Today I found another supplier for my shop.", extract=False, occurred_at="2023-02-01")

    first = results(team["writer"], "What did Gina find for the shop on 1 February, 2023?")[0]

    assert first["event_date"].startswith("2023-02-01")
    assert first["signals"]["in_named_time"] is True


@pytest.mark.django_db
def test_the_line_said_by_the_person_the_question_names_comes_first(team, add):
    add("Caroline: Running by the river always clears my head.", extract=False)
    add("Melanie: Running by the river always clears my head!", extract=False)

    first = results(team["writer"], "What clears Melanie's head?")[0]

    assert first["content"].startswith("Melanie:")
    assert first["signals"]["said_by_named"] is True


@pytest.mark.django_db
def test_a_speaker_the_question_names_is_not_a_word_to_match(team, add):
    """Matched as a word and as meaning, the name would favour the lines that greet Melanie and
    the short ones her label is most of over the line that answers."""
    for line in [
        "Caroline: Thanks, Melanie! You're the best, Melanie.",
        "Melanie: Cool! What did it look like?",
        "Melanie: Hey Caroline! Good to see you. What's new?",
        "Caroline: Wow, Melanie! Glad you're doing well.",
        "Melanie: Thanks, Caroline!",
        "Melanie: Pottery class on Sundays calms me down completely.",
    ]:
        add(line, extract=False)

    first = results(team["writer"], "How does Melanie relax?")[0]

    assert first["content"] == "Melanie: Pottery class on Sundays calms me down completely."
    assert first["signals"]["said_by_named"] is True


@pytest.mark.django_db
def test_a_name_no_speaker_has_is_still_a_word_to_match(team, add):
    add("Maria: I had dinner with Jean from the shelter tonight.", extract=False)
    add("Maria: Dinner with my mom tonight was lovely.", extract=False)
    add("John: Jean asked about you, Maria!", extract=False)
    scope = Scope(readable=[team["workspace"].id], user_id="bob")

    first = results(team["writer"], "When did Maria have dinner with Jean?")[0]

    assert speakers_named(scope, "Did Jean meet Maria or John's mom?") == {"maria", "john"}
    assert first["content"] == "Maria: I had dinner with Jean from the shelter tonight."


@pytest.mark.django_db
def test_a_speaker_is_named_however_many_lines_of_others_say_the_name(team, add):
    """Whether a word names a speaker is asked of every memory in scope, not of the first few
    holding the word: here 250 of Maria's lines say "Jean", each newer than the one Jean said."""
    add("Jean: I adopted a grey cat last week.", extract=False, occurred_at="2023-01-10")
    said = add("Maria: Jean called about the shelter again.", extract=False, occurred_at="2023-02-10")
    line = Memory.objects.get(id=said["memory_ids"][0])
    copies = []
    for n in range(250):
        again = copy.copy(line)
        again.id, again.content_key = uuid.uuid4(), f"copy {n}"  # one live memory per content
        copies.append(again)
    Memory.objects.bulk_create(copies)
    scope = Scope(readable=[team["workspace"].id], user_id="bob")

    assert speakers_named(scope, "What did Jean adopt?") == {"jean"}
    assert speakers_named(scope, "Will Maria call Jean?") == {"jean", "maria"}


@pytest.mark.django_db
def test_whether_a_word_names_a_speaker_is_read_from_the_speakers_index(team, add):
    """The probe compares the expression the index memory_speaker_first_name holds: were they to
    differ by a letter, every capitalised word would read the owner's rows instead."""
    add("Dr. Melanie Ruiz: I paint sunsets.", extract=False)
    scope = Scope(readable=[team["workspace"].id], user_id="bob")
    with CaptureQueriesContext(connection) as queries:
        assert speakers_named(scope, "What does Melanie paint?") == {"melanie"}
    assert any(FIRST_NAME in q["sql"] for q in queries.captured_queries)

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN SELECT 1 FROM memory_memory m WHERE m.facets ? 'speaker' AND {FIRST_NAME} = 'melanie'")
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "using memory_speaker_first_name" in plan
    assert "Index Cond: (split_part(lower(regexp_replace(" in plan


@pytest.mark.django_db
def test_a_speaker_only_another_workspace_sees_is_not_named(team, add):
    add("Melanie: I paint sunsets.", extract=False, user_id="bob")
    scope = Scope(readable=[team["workspace"].id + 1000], user_id="bob")

    assert speakers_named(scope, "What does Melanie paint?") == frozenset()


@pytest.mark.parametrize(
    ("query", "matched"),
    [
        ("What do Melanie's kids like?", "What do kids like?"),
        ("Did Melanie and Caroline both paint sunsets?", "Did and both paint sunsets?"),
        ("Melanie?", "Melanie?"),
        ("When did Maria meet Jean?", "When did meet Jean?"),
    ],
)
def test_the_query_is_matched_without_the_speakers_it_names(query, matched):
    assert without_speakers(query, frozenset({"melanie", "caroline", "maria"})) == matched


@pytest.mark.django_db
@override_settings(HELIX_SEARCH_SEEDS="bm25")
def test_the_user_a_question_names_is_the_owner_not_a_word_to_match(team, add):
    """Agents ask "What does the user …?" of memories that say "I": the word "user" matches only
    memories about other users."""
    add(
        "The user survey asked each user about the coffee machine users share.", extract=False, occurred_at="2023-01-10"
    )
    add("I drink two cups of coffee every morning.", extract=False, occurred_at="2023-06-10")

    first = results(team["writer"], "What coffee does the user drink?")[0]

    assert first["content"] == "I drink two cups of coffee every morning."


@pytest.mark.django_db
def test_one_common_word_of_a_question_is_weak_evidence(team, add):
    """A question asking what the user does for a living keeps one indexed word ("live"): every
    memory saying "lives" holds all of it, and still none of them answers."""
    for n, city in enumerate(["Lisbon", "Osaka", "Quito", "Cork", "Oslo"]):
        add(f"My sister lives in {city} and sent a postcard.", extract=False, occurred_at=f"2023-0{n + 1}-10")
    add("I work as a pilot at an airline downtown.", extract=False, occurred_at="2023-08-10")

    first = results(team["writer"], "What does the user do for a living?")[0]

    assert first["content"] == "I work as a pilot at an airline downtown."


@pytest.mark.django_db
def test_the_speakers_a_caller_named_before_are_guessed_and_a_wrong_guess_is_embedded_again(team, add, monkeypatch):
    """The query is embedded while the speakers are looked up, less the names that were speakers
    the last time this caller searched here; the answer is the same whether the guess was right.
    What is handed to the model is recorded as it is handed over, not when the model gets to it
    (a wrong guess not started yet is called off)."""
    from memory.search import conductor, speakers

    add("Melanie: Pottery class on Sundays calms me down completely.", extract=False)
    add("Caroline: Thanks, Melanie! You're the best, Melanie.", extract=False)
    speakers._named_before.clear()
    embedded: list[str] = []

    def recorded(original):
        def hand_over(text: str):
            embedded.append(text)
            return original(text)

        return hand_over

    monkeypatch.setattr(conductor, "_embed_early", recorded(conductor._embed_early))
    monkeypatch.setattr(conductor, "_embed_meanwhile", recorded(conductor._embed_meanwhile))

    first = results(team["writer"], "How does Melanie relax?")
    assert embedded == ["How does Melanie relax?", "How does relax?"], "nothing known yet: guessed no speaker"

    embedded.clear()
    again = results(team["writer"], "How does Melanie relax?")
    assert embedded == ["How does relax?"], "Melanie is known to be a speaker here now"
    assert [r["id"] for r in again] == [r["id"] for r in first]

    embedded.clear()
    results(team["writer"], "Does Caroline paint?")
    assert embedded == ["Does Caroline paint?", "Does paint?"], "a name not asked before is guessed no speaker"

    embedded.clear()
    by_viewer = results(team["viewer"], "How does Melanie relax?")
    assert embedded == ["How does Melanie relax?", "How does relax?"], "another caller's guesses are its own"
    assert [r["id"] for r in by_viewer] == [r["id"] for r in first]

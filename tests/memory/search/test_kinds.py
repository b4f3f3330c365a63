"""A question asking for a kind of thing finds the memories naming an instance of it: "What
instruments does Tim play?" finds "I'm learning the violin", which shares no word with it."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from memory.search.conductor import memory_search
from memory.search.kinds import asked_kind, instance_query, lexicon, plural


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What instruments does Tim play?", "instrument"),
        ("What martial arts has John done?", "martial art"),
        ("What pets does Nate have?", "pet"),
        ("Which European cities did Maya visit last year?", "city"),
        ("What kind of pet did Jo want as a child?", "pet"),
        ("What are some of Melanie's pets?", "pet"),
        ("What are the board games they play?", "board game"),
        ("What music events has John attended?", "event"),  # events, not music
    ],
)
def test_a_question_asking_what_or_which_of_a_kind_asks_for_it(question, kind):
    found = asked_kind(question)

    assert found is not None and found.name == kind


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline's pets do?",  # what they did, not which pets
        "Where does Tim play the violin?",
        "What did Tim say about the city council?",  # what he said, not which city
        "What subject have Caroline and Melanie both painted?",
        "Do you play an instrument?",
        "what " * 5000,
    ],
)
def test_a_question_asking_for_no_kind_the_lexicon_knows_has_none(question):
    assert asked_kind(question) is None


def test_every_kind_matches_its_plural_and_its_instances_are_a_valid_full_text_query(db):
    from django.db import connection

    kinds = {id(kind): kind for kind in lexicon().values()}.values()
    assert len(kinds) >= 50
    assert plural("city") == "cities" and plural("box") == "boxes" and plural("martial art") == "martial arts"
    with connection.cursor() as cursor:
        for kind in kinds:
            assert lexicon()[plural(kind.name)] is kind
            cursor.execute("SELECT numnode(to_tsquery('english', %s))", [instance_query(kind)])
            assert cursor.fetchone()[0] > 0, kind.name


def texts_of(kind) -> list[str]:
    """Texts naming each instance, each phrase's words apart or in another order, an instance inside
    a longer word, one to three instances once or more, the kind's own word, and none."""
    texts = ["Nothing of the kind here, only the weather.", f"My {kind.name} is lovely."]
    for instance in kind.instances[:60]:
        words = instance.replace("-", " ").split()
        texts += [f"We talked about {instance} today.", f"{' and then '.join(reversed(words))}."]
        texts += [f"{words[0]}s and {words[-1]}ing", f"super{words[0]}", f"My {kind.name}: {instance}."]
    instances = list(kind.instances[:40])
    texts += [
        f"On Sunday we tried {instances[n % len(instances)]}, then {instances[(n * 7 + 3) % len(instances)]}"
        + f" and more {instances[(n * 3 + 1) % len(instances)]}" * (n % 3)
        for n in range(len(instances))
    ]
    return texts


def test_the_kinds_a_memory_is_recorded_to_hold_are_those_the_whole_query_finds_ranked_as_it_ranks(db):
    """Every kind, over ``texts_of`` it: what a write records (``memory_kinds_held``) is exactly the
    texts the whole query of the kind's instances matches without the kind's own word, each ranked
    by the whole query to the last bit: what a question for the kind matched and ranked before
    anything was recorded."""
    from django.db import connection

    kinds = {id(kind): kind for kind in lexicon().values()}.values()
    checked = held = 0
    with connection.cursor() as cursor:
        for kind in kinds:
            texts = texts_of(kind)
            cursor.execute(
                """SELECT t, CASE WHEN v @@ to_tsquery('english', %(whole)s)
                                   AND NOT v @@ plainto_tsquery('english', %(kind)s)
                              THEN ts_rank(v, to_tsquery('english', %(whole)s)) END,
                          (SELECT h.rank FROM memory_kinds_held(v) h WHERE h.kind = %(kind)s)
                   FROM unnest(%(texts)s::text[]) AS t, LATERAL (SELECT to_tsvector('english', t) AS v) m""",
                {"texts": texts, "whole": instance_query(kind), "kind": kind.name},
            )
            rows = cursor.fetchall()
            assert [(text, whole) for text, whole, _ in rows] == [(text, recorded) for text, _, recorded in rows], (
                kind.name
            )
            assert any(whole is not None for _, whole, _ in rows), kind.name
            assert rows[1][1] is None, f"{kind.name}: a text naming the kind itself holds no instance of it"
            checked += len(rows)
            held += sum(whole is not None for _, whole, _ in rows)
    assert checked > 10_000 and held > 5_000


def holders() -> set[tuple[str, str]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT m.content, h.kind FROM memory_kindholder h JOIN memory_memory m ON m.id = h.memory_id")
        return set(cursor.fetchall())


def kinds_of(memory_id) -> set[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT kind FROM memory_kindholder WHERE memory_id = %s", [memory_id])
        return {kind for (kind,) in cursor.fetchall()}


@pytest.mark.django_db
def test_what_a_memory_holds_follows_its_writes(team, add):
    """Added, corrected, forgotten for good: the kinds recorded for a memory are those of its words now."""
    from memory.models import Memory
    from memory.services.corrections import memory_update

    violin = add("I've started learning the violin to unwind.", extract=True)["memory_ids"][0]
    beagle = add("We adopted a beagle called Max last spring.", extract=True)["memory_ids"][0]
    assert "instrument" in kinds_of(violin) and "pet" in kinds_of(beagle)

    memory_update(actor=team["writer"], memory_id=violin, content="bob has started going to pottery class.")
    assert "instrument" not in kinds_of(violin) and "hobby" in kinds_of(violin)

    Memory.objects.filter(pk=beagle).delete()
    assert kinds_of(beagle) == set() and kinds_of(violin) != set()


@pytest.mark.django_db
def test_a_changed_lexicon_reads_every_memory_again_once(team, add):
    """After a migrate, the lexicon's rows are the lexicon file's: rows that differ (an upgrade's
    lexicon) are replaced and every memory read again; rows that match are left as they are."""
    from django.db import connection

    from memory.search.kinds import kind_lexicon_sync

    add("Tim: I've started learning the violin to unwind.", extract=False)
    with connection.cursor() as cursor:  # a lexicon without the instruments, and no holder of them
        cursor.execute("DELETE FROM memory_kind WHERE kind = 'instrument'")
        cursor.execute("DELETE FROM memory_kindholder WHERE kind = 'instrument'")
        cursor.execute("UPDATE memory_kindlexicon SET digest = 'before'")
    assert not any(kind == "instrument" for _, kind in holders())

    assert kind_lexicon_sync() is True
    assert ("Tim: I've started learning the violin to unwind.", "instrument") in holders()
    assert kind_lexicon_sync() is False


def test_reading_a_long_hostile_question_takes_no_longer_than_its_first_characters():
    """The question is read only as far as ``HELIX_SEARCH_KIND_QUESTION_CHARS``, in one pass."""
    hostile = "which " + "'" * 2_000_000 + " cities"
    started = time.process_time()
    assert asked_kind(hostile) is None
    assert time.process_time() - started < 2.0


def contents(actor, query: str, user_id: str = "bob") -> list[str]:
    return [r["content"] for r in memory_search(actor=actor, query=query, user_id=user_id, limit=3)["results"]]


SAID = [
    "Tim: Honestly school has been a lot lately, but I've started learning the violin to unwind.",
    "Tim: We watched a film about a jazz club and I really wanted to go to one.",
    "Tim: I play football with my cousins on Sundays when the weather is nice.",
    "Tim: My favourite thing this week was the long walk by the lake with John.",
    "Tim: Exams are done, and I finally have time for the books I put off.",
]


@pytest.mark.django_db
def test_the_memory_naming_an_instance_of_the_kind_asked_for_comes_first(team, add):
    for line in SAID:
        add(line, extract=False)

    with override_settings(HELIX_SEARCH_KIND_WEIGHT=0.0):
        without = contents(team["writer"], "What instruments does Tim play?")
    found = contents(team["writer"], "What instruments does Tim play?")

    assert found[0] == SAID[0]
    assert without[0] != SAID[0]  # the words "play" and "Tim" alone lead elsewhere


@pytest.mark.django_db
def test_an_instance_named_only_in_another_owners_memories_is_not_found(team, add):
    add("Tim: I've started learning the violin to unwind.", extract=False, user_id="alice")
    for line in SAID[1:]:
        add(line, extract=False)

    found = contents(team["writer"], "What instruments does Tim play?")

    assert all("violin" not in text for text in found)


@pytest.mark.django_db
@override_settings(HELIX_SEARCH_SEEDS="bm25")
def test_many_memories_naming_an_instance_do_not_outweigh_the_rarest_word_asked_for(team, add):
    # Each row naming a city counts as holding "city" once, and "city" counts as BM25 would count it
    # if they all held it: twenty of them make it a common word, not the rarest one of the question.
    cities = ["Toronto", "Quito", "Denver", "Oslo", "Lima", "Tallinn", "Boston", "Chicago", "Seattle", "Dublin"]
    for city in cities:
        add(f"My sister flew to {city} for a wedding.", extract=False)
        add(f"I looked up flights to {city} but they were expensive.", extract=False)
    flat = add("My flat is by the canal, near the old brewery.", extract=False)["memory_ids"][0]

    results = memory_search(actor=team["writer"], query="Which city is my flat in?", user_id="bob", limit=5)

    assert results["results"][0]["id"] == flat


@pytest.mark.django_db
def test_an_owner_found_large_is_matched_by_words_and_meaning_only(team, add, settings):
    """Past the rows gathered exactly, the holders of a kind are not read (a large owner's are
    thousands): the question is answered as if no kind were asked for, and as fast."""
    for line in SAID:
        add(line, extract=False)
    settings.HELIX_SEARCH_EXACT_ROWS = 2  # bob's five memories are many

    contents(team["writer"], "What instruments does Tim play?")  # bob is found large
    found = contents(team["writer"], "What instruments does Tim play?")
    with override_settings(HELIX_SEARCH_KIND_WEIGHT=0.0):
        without = contents(team["writer"], "What instruments does Tim play?")

    assert found == without


@pytest.mark.django_db
def test_the_holders_of_a_kind_are_read_for_one_owner_across_owners_and_under_a_filter(team, add):
    """The three ways the recorded holders are read (one owner's through their index; every owner
    the caller sees, through the full-text index; the few rows a filter leaves, by their ids) find
    the memories naming an instance, best first, and only within what the search may read."""
    from memory.search.filters import memory_filter_parse
    from memory.search.kinds import kind_holders
    from memory.search.params import search_request
    from memory.search.scope import Scope

    violin = add("Tim: I've started learning the violin to unwind.", extract=False, user_id="alice")["memory_ids"][0]
    both = add("Tim: violin on Mondays, and the cello and the flute at the weekend.", extract=False, metadata={"t": 1})
    for line in SAID[1:]:
        add(line, extract=False, metadata={"t": 1})
    kind = asked_kind("What instruments does Tim play?")
    writer, outsider = team["writer"], team["outsider"]

    def read(actor, user_id=None, **narrowed) -> list:
        request = search_request(
            query="What instruments does Tim play?", user_id=user_id, scope="personal" if user_id else "collective"
        )
        return [str(found) for found in kind_holders(Scope.of(actor, user_id, **narrowed), request, kind)[0]]

    assert read(writer, "alice") == [violin]
    assert read(writer, "bob") == both["memory_ids"]
    assert read(writer) == [*both["memory_ids"], violin]  # three instruments rank above one
    assert read(writer, filters=memory_filter_parse({"metadata": {"t": 1}})) == both["memory_ids"]
    assert read(writer, "carol") == [] and read(outsider) == []


@pytest.mark.django_db(transaction=True)
def test_migrated_back_and_forward_again_every_memory_is_read_again(team, add):
    """Migrated back, the triggers go and the tables stay; a memory written then is recorded by
    nobody. Migrated forward again, the sync after it reads every memory again."""
    from django.core.management import call_command

    add("Tim: I've started learning the violin to unwind.", extract=False)
    call_command("migrate", "memory", "0023", verbosity=0)
    try:
        add("Tim: We adopted a beagle called Max last spring.", extract=False)
        assert not any(kind == "pet" for _, kind in holders())
    finally:
        call_command("migrate", verbosity=0)

    assert {
        ("Tim: I've started learning the violin to unwind.", "instrument"),
        ("Tim: We adopted a beagle called Max last spring.", "pet"),
    } <= holders()

"""A question asking for a kind of thing finds the memories naming an instance of it: "What
instruments does Tim play?" finds "I'm learning the violin", which shares no word with it."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from memory.search.conductor import memory_search
from memory.search.kinds import (
    asked_kind,
    holding,
    holding_values,
    holds_an_instance,
    instance_query,
    lexicon,
    plural,
)


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


def test_an_owners_rows_read_word_by_word_hold_an_instance_exactly_when_the_whole_query_says_so(db):
    """Every kind, over texts naming each instance, each phrase's words apart or in another order,
    an instance inside a longer word, and text naming none: the cheap reading and the whole query
    agree on every one; and the whole query parsed once is the query parsed each time."""
    from django.db import connection

    kinds = {id(kind): kind for kind in lexicon().values()}.values()
    checked = 0
    with connection.cursor() as cursor:
        for kind in kinds:
            texts = ["Nothing of the kind here, only the weather.", f"My {kind.name} is lovely."]
            for instance in kind.instances[:60]:
                words = instance.replace("-", " ").split()
                texts += [f"We talked about {instance} today.", f"{' and then '.join(reversed(words))}."]
                texts += [f"{words[0]}s and {words[-1]}ing", f"super{words[0]}"]
            how = holding(kind)
            cursor.execute(
                f"""SELECT t, m.search_vector @@ to_tsquery('english', %(whole)s), {holds_an_instance(how)}
                    FROM unnest(%(texts)s::text[]) AS t, LATERAL (SELECT to_tsvector('english', t) AS search_vector) m""",
                {"texts": texts, "whole": instance_query(kind), **holding_values(how)},
            )
            rows = cursor.fetchall()
            cursor.execute("SELECT to_tsquery('english', %s) = %s::tsquery", [instance_query(kind), how.instances])
            assert cursor.fetchone()[0], f"{kind.name}: the whole query, parsed once, is the whole query"
            assert [(text, whole) for text, whole, _ in rows] == [(text, cheap) for text, _, cheap in rows], kind.name
            assert any(whole for _, whole, _ in rows), kind.name
            checked += len(rows)
    assert checked > 10_000


def test_holders_are_ranked_by_their_lexemes_each_once_exactly_as_by_the_whole_query(db):
    """Every kind, over texts naming one to three of its instances once or more (phrases among
    them) and text naming none: the rank by the query of the whole query's lexemes, each once, is
    the rank by the whole query, to the last bit."""
    from django.db import connection

    kinds = {id(kind): kind for kind in lexicon().values()}.values()
    checked = 0
    with connection.cursor() as cursor:
        for kind in kinds:
            instances = list(kind.instances[:40])
            texts = ["Nothing of the kind here, only the weather."] + [
                f"On Sunday we tried {instances[n % len(instances)]}, then {instances[(n * 7 + 3) % len(instances)]}"
                + f" and more {instances[(n * 3 + 1) % len(instances)]}" * (n % 3)
                for n in range(len(instances))
            ]
            how = holding(kind)
            cursor.execute(
                """SELECT t, ts_rank(v, %(whole)s::tsquery), ts_rank(v, %(ranking)s::tsquery)
                   FROM unnest(%(texts)s::text[]) AS t, LATERAL (SELECT to_tsvector('english', t) AS v) m""",
                {"texts": texts, "whole": how.instances, "ranking": how.ranking},
            )
            rows = cursor.fetchall()
            assert [(text, whole) for text, whole, _ in rows] == [(text, rank) for text, _, rank in rows], kind.name
            assert any(whole > 0 for _, whole, _ in rows), kind.name
            checked += len(rows)
    assert checked > 1_000


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

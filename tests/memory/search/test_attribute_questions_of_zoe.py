"""Questions about one owner, Zoe, who moved twice and has a sister elsewhere: answered about
her, with her current value, whether what she said was extracted or kept verbatim."""

from __future__ import annotations

import pytest

from memory.answering import memory_answer
from memory.search import conductor
from memory.search.attributes import attribute_asked
from tests.conftest import add_as_writer, make_team, rows_for_the_module
from tests.memory.search.test_attribute_questions import results

pytestmark = pytest.mark.django_db

ZOE = [
    "I moved to Lisbon in March",
    "My sister Ana lives in Porto",
    "I'm allergic to shellfish",
    "I work as a nurse",
    "I started the cello",
    "Actually I moved from Lisbon to Coimbra in October",
]


@pytest.fixture(scope="module", params=[True, False], ids=["extracted", "verbatim"])
def module_zoe(request, django_db_setup, django_db_blocker):
    """What Zoe said, extracted or kept verbatim, written once for the module's questions."""

    def build():
        team = make_team()
        for message in ZOE:
            add_as_writer(team, message, user_id="zoe", extract=request.param)
        return team["writer"]

    yield from rows_for_the_module(django_db_blocker, build)


@pytest.fixture
def zoe(module_zoe, db):
    """The writer who asks about Zoe; what a question changes (access counts) is rolled back."""
    return module_zoe


@pytest.mark.parametrize("question", ["Where does Zoe live now?", "Where do I live?", "What city is Zoe in?"])
def test_where_zoe_lives_is_her_current_city_not_her_sisters(zoe, question):
    found = results(zoe, question)

    assert "Coimbra" in found[0]["content"]
    assert found[0]["signals"]["attribute_match"] is True
    assert [r["signals"]["attribute_match"] for r in found[1:]] == [False] * (len(found) - 1)
    assert "Porto" not in found[0]["content"]


def test_the_superseded_city_is_never_the_match(zoe):
    found = results(zoe, "Where does Zoe live now?")

    old = next(r for r in found if "Lisbon in March" in r["content"])
    assert old["superseded"] is True and old["signals"]["attribute_match"] is False


def test_a_relative_named_in_the_question_is_answered_about_the_relative(zoe):
    assert "Porto" in results(zoe, "Where does Zoe's sister live?")[0]["content"]
    assert "Porto" in results(zoe, "Where does Ana live?")[0]["content"]


@pytest.mark.parametrize("question", ["What does Zoe do?", "What's my job?", "What is Zoe's job?"])
def test_her_job_answers_what_she_does(zoe, question):
    assert "nurse" in results(zoe, question)[0]["content"]


def test_the_extractive_answer_is_the_current_value_of_the_person_asked_about(zoe):
    answered = memory_answer(actor=zoe, question="Where does Zoe live now?", user_id="zoe")

    assert (answered["found"], answered["method"]) == (True, "extractive")
    assert "Coimbra" in answered["answer"] and "Porto" not in answered["answer"]
    assert [c["content"] for c in answered["citations"]] == [
        next(r["content"] for r in results(zoe, "Coimbra") if "Coimbra" in r["content"])
    ]


ORDINARY = [
    "What is zoe allergic to?",
    "cello",
    "Which instrument did Zoe start?",
    "Lisbon",
    "Tell me about Zoe's family",
    "What happened in October?",
    "Where is Zoe from?",
    "What does Zoe like?",
    "shellfish allergy",
    "Does Zoe have a sister?",
]


@pytest.mark.parametrize("query", ORDINARY)
def test_questions_asking_for_no_attribute_rank_as_without_attribute_questions(zoe, monkeypatch, query):
    with_them = [(r["id"], r["score"]) for r in results(zoe, query)]
    monkeypatch.setattr(conductor, "attribute_holding", lambda *args: None)

    assert attribute_asked(query, "zoe") is None
    assert [(r["id"], r["score"]) for r in results(zoe, query)] == with_them

"""answer_question over HTTP: an extractive answer with citations offline, an LLM's answer from
the packed context only (served over real HTTP by the local OpenAI-compatible test server), and
"Not in memory." said plainly."""

from __future__ import annotations

import json

import pytest

from rbac.models import Role
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_workspace
from tests.memory.search.test_attribute_questions_of_zoe import ZOE
from tests.openai_compatible_server import chat_answer, error_answer

CHAT = "/v1/chat/completions"
pytestmark = pytest.mark.django_db


def caller(name: str) -> Caller:
    principal, token = make_agent_with_token(name)
    client = bearer_client(token.raw)
    client.defaults["HTTP_HOST"] = "127.0.0.1"
    return Caller(name, client), principal


@pytest.fixture
def agent():
    workspace = make_workspace("crew")
    scribe, principal = caller("scribe")
    grant(principal, workspace, Role.WORKER)
    for fact in (
        "My blood type is A negative.",
        "I adopted a beagle named Rex last spring. He sleeps on the sofa.",
        "The dentist moved my appointment to March 3.",
        "I drink two cups of coffee every morning.",
    ):
        stored = scribe.call("add_memory", user_id="ada", message=fact, group_id="crew", extract=False)
        assert stored.status_code == 200, stored.json()
    return scribe


def ask(agent: Caller, question: str, **options) -> dict:
    answer = agent.call("answer_question", user_id="ada", question=question, **options)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def ids_of(agent: Caller, text: str) -> str:
    found = agent.call("search_memory", user_id="ada", query=text).json()["results"]
    return next(r["id"] for r in found if r["content"] == text)


def test_without_an_llm_the_best_supported_sentence_answers_with_its_citation(agent):
    answered = ask(agent, "What is Ada's blood type?")

    assert (answered["found"], answered["method"]) == (True, "extractive")
    assert answered["answer"].startswith("My blood type is A negative.")
    assert answered["citations"][0] == {
        "id": ids_of(agent, "My blood type is A negative."),
        "content": "My blood type is A negative.",
    }
    assert answered["citations"][0]["id"] in answered["context"]


def test_an_extractive_answer_is_the_sentence_not_the_whole_memory(agent):
    answered = ask(agent, "What is the name of the dog?")

    assert answered["answer"].split(" ")[:4] == ["I", "adopted", "a", "beagle"]
    assert "He sleeps on the sofa." not in answered["answer"]


def test_what_memory_does_not_hold_is_not_in_memory(agent):
    answered = ask(agent, "Which programming language does the payroll service use?")

    assert answered["found"] is False
    assert answered["answer"] == "Not in memory."
    assert answered["citations"] == []


def test_an_outsider_gets_no_answer_from_memories_it_cannot_see(agent):
    outsider, _ = caller("stranger")

    answered = outsider.call("answer_question", user_id="ada", question="What is Ada's blood type?").json()

    assert answered["found"] is False and answered["citations"] == [] and answered["context"] == ""


def test_a_question_is_required(agent):
    refused = agent.call("answer_question", user_id="ada", question="")

    assert refused.status_code == 400
    assert refused.json()["error"]["field"] == "question"


def test_the_llm_answers_from_the_context_and_invented_ids_are_dropped(agent, llm_server):
    blood = ids_of(agent, "My blood type is A negative.")
    invented = "00000000-0000-4000-8000-000000000000"
    llm_server.queue(
        CHAT, chat_answer(json.dumps({"answer": "A negative.", "citations": [blood, invented], "found": True}))
    )

    answered = ask(agent, "What is Ada's blood type?")

    assert (answered["answer"], answered["method"], answered["found"]) == ("A negative.", "llm", True)
    assert [c["id"] for c in answered["citations"]] == [blood]
    assert answered["dropped_citations"] == [invented]
    (request,) = llm_server.requests_to(CHAT)
    prompt = request["messages"][-1]["content"]
    assert f"[{blood}] My blood type is A negative." in prompt and "Question: What is Ada's blood type?" in prompt


def test_the_llm_may_say_it_is_not_in_memory(agent, llm_server):
    llm_server.queue(CHAT, chat_answer(json.dumps({"answer": "I don't know.", "citations": [], "found": False})))

    answered = ask(agent, "What is Ada's favourite opera?")

    assert (answered["answer"], answered["found"], answered["citations"]) == ("Not in memory.", False, [])


def test_when_the_llm_fails_the_answer_is_extractive(agent, llm_server):
    llm_server.queue(CHAT, error_answer(500))

    answered = ask(agent, "What is Ada's blood type?")

    assert answered["method"] == "extractive" and answered["llm_error"]
    assert answered["answer"].startswith("My blood type is A negative.")


def test_a_question_about_a_person_is_answered_with_their_current_value(agent):
    for fact in ZOE:
        stored = agent.call("add_memory", user_id="zoe", message=fact, group_id="crew")
        assert stored.status_code == 200, stored.json()

    answered = agent.call("answer_question", user_id="zoe", question="Where does Zoe live now?").json()
    sister = agent.call("answer_question", user_id="zoe", question="Where does Zoe's sister live?").json()

    assert (answered["found"], answered["method"]) == (True, "extractive")
    assert answered["answer"] == "Actually zoe moved from Lisbon to Coimbra in October."
    assert [c["content"] for c in answered["citations"]] == [answered["answer"]]
    assert sister["answer"] == "zoe's sister Ana lives in Porto."

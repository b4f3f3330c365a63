"""The working-session corpus: every chat written for it is fit to measure with, it reaches the LoCoMo
benchmark in LoCoMo's shape, and the benchmark says whether an update outranks what it updates."""

from __future__ import annotations

import json

import pytest

from bench.locomo import Answer, Question, load, spaces, updates_first
from bench.working_sessions import chats, file_for, problems, selection, to_locomo, written
from bench.working_sessions.shape import Chat, Session, a, u
from bench.working_sessions.shape import Question as Asked

CHAT = Chat(
    name="ws-test",
    sessions=[
        Session(
            "2026-03-02T09:05:00Z",
            [
                u("Our build takes about twelve minutes.", key="old-build"),
                a("Twelve minutes is long; caching the images would help."),
                u("From now on write every date as YYYY-MM-DD.", key="dates"),
            ],
        ),
        Session(
            "2026-03-09T10:00:00Z",
            [u("We cached the images: the build now takes four minutes.", key="new-build"), a("Good.")],
        ),
    ],
    questions=[
        Asked("How long does the build take?", "four minutes", ["new-build"], "knowledge-update", ["old-build"]),
        Asked("Draft the header of Friday's release note.", "YYYY-MM-DD", ["dates"], "standing-instruction"),
        Asked(
            "What did we change and how long was it?",
            "twelve minutes; four minutes",
            ["old-build", "new-build"],
            "multi-turn",
        ),
    ],
)


def test_the_chats_written_for_the_corpus_are_fit_to_measure_with():
    written_chats = chats()
    assert written_chats, "the corpus holds no chat"
    assert [problem for chat in written_chats for problem in problems(chat)] == []
    assert len({chat.name for chat in written_chats}) == len(written_chats)


def test_a_fit_chat_has_no_problem():
    assert problems(CHAT) == []


def test_problems_name_each_flaw():
    flawed = Chat(
        name="ws-bad",
        sessions=[
            Session("2026-03-09T10:00:00Z", [u("Our build takes twelve minutes.", key="k"), a("Yes.", key="k")]),
            Session("2026-03-01T10:00:00Z", [Turn_of("robot")]),
        ],
        questions=[
            Asked("How long?", "four minutes", ["k"], "single-fact"),
            Asked("Where?", "x", ["nowhere"], "single-fact"),
            Asked("Now?", "twelve minutes", ["k"], "knowledge-update"),
            Asked("What?", "twelve minutes", ["k"], "trivia"),
        ],
    )
    found = "\n".join(problems(flawed))
    for flaw in (
        "key 'k' names two turns",
        "speaker 'robot'",
        "not in time order",
        "holds the answer 'four minutes'",
        "['nowhere'] names no turn",
        "names the turns it supersedes",
        "ability 'trivia'",
    ):
        assert flaw in found


def Turn_of(speaker: str):
    from bench.working_sessions.shape import Turn

    return Turn(speaker, "hello")


def test_a_chat_reaches_the_benchmark_with_its_evidence_and_what_it_supersedes(tmp_path):
    path = tmp_path / "ws.json"
    path.write_text(json.dumps([to_locomo(CHAT)]))
    [conversation] = load(path)
    assert [t.message for t in conversation.turns][:1] == ["user: Our build takes about twelve minutes."]
    assert conversation.turns[3].dia_id == "D2:1" and conversation.turns[3].occurred_at == "2026-03-09T10:00:00+00:00"
    update = conversation.questions[0]
    assert (update.category, update.evidence, update.superseded) == ("knowledge-update", {"D2:1"}, {"D1:1"})
    assert conversation.questions[1].answer == "YYYY-MM-DD"


def test_the_corpus_is_written_to_a_file_of_its_own_with_workspaces_of_its_own(tmp_path):
    path = tmp_path / "bench" / "working-sessions.json"
    count, turns, questions = written(path)
    assert count == len(chats()) and questions == sum(len(c.questions) for c in chats())
    assert sum(len(c.turns) for c in load(path)) == turns
    assert spaces(path) == {False: "bench-working-sessions-v", True: "bench-working-sessions-x"}
    assert spaces(path.with_name("locomo-dev.json")) == {False: "bench-locomo-v", True: "bench-locomo-x"}


def test_the_report_counts_the_updates_ranked_above_what_they_update():
    question = Question("How long does the build take?", "knowledge-update", {"D2:1"}, "four minutes", {"D1:1"})
    plain = Question("Which error?", "single-fact", {"D1:3"})
    labelled = Question("What's the build cache now?", "knowledge-update", {"D3:1"}, "S3", {"D1:2"})
    rankings = {
        "Helixsite": [
            Answer(question, ["D2:1", "D1:1"]),
            Answer(plain, ["D1:1", "D1:3"]),
            Answer(labelled, ["D3:1", "D1:2"], succeeds={0: {"D1:2"}, 1: set()}),
        ],
        "cosine": [Answer(question, ["D1:1", "D2:1"]), Answer(plain, ["D1:3"]), Answer(labelled, ["D1:2"])],
        "BM25": [Answer(question, ["D1:1"]), Answer(plain, ["D1:3"]), Answer(labelled, ["D1:2"])],
    }
    assert updates_first(rankings).splitlines() == [
        "  update ranked above what it updates, Helixsite: 2 of 2 questions with both in the top ten; "
        "above it and labelled its successor (supersedes, restates) in 1",
        "  update ranked above what it updates, cosine: 0 of 1 questions with both in the top ten",
        "  update ranked above what it updates, BM25: 0 of 0 questions with both in the top ten",
    ]


def test_chats_named_in_the_selection_are_measured_alone_in_a_file_and_workspaces_of_their_own(tmp_path):
    names = [chat.name for chat in chats()]
    selected = selection(f" {names[0]},{names[-1][:5]} ")
    assert selected == (names[0], names[-1][:5])
    chosen = chats(selected)
    assert [c.name for c in chosen] == [n for n in names if n == names[0] or n.startswith(names[-1][:5])]
    assert file_for(selected) != file_for(()) and file_for(()).name == "working-sessions.json"
    assert spaces(file_for(selected)) != spaces(file_for(()))
    longer = ("ws-01-ci-pipeline", "ws-02-data-analysis", "ws-03-home-server")
    assert spaces(file_for(longer)) != spaces(file_for(longer[:2] + ("ws-04-rust-cli",)))
    path = tmp_path / "bench" / file_for(selected).name
    count, _, questions = written(path, selected)
    assert [c["sample_id"] for c in json.loads(path.read_text())] == [c.name for c in chosen]
    assert (count, questions) == (len(chosen), sum(len(c.questions) for c in chosen))


def test_a_selection_naming_no_chat_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="no working chat is named ws-nothing"):
        written(tmp_path / "none.json", ("ws-nothing",))

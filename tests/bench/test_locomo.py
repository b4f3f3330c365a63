"""The LoCoMo benchmark's reading of its file and its report: category names, evidence ids, answers,
and the server's recall beside its parts."""

from __future__ import annotations

import json

from bench.locomo import (
    Answer,
    Question,
    _answer,
    _evidence_ids,
    beside_parts,
    category_name,
    load,
    recall_table,
    summary,
)

CONVERSATION = {
    "sample_id": "conv-t",
    "conversation": {
        "speaker_a": "user",
        "speaker_b": "assistant",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "user", "dia_id": "D1:1", "text": "My build fails with E1203."},
            {"speaker": "assistant", "dia_id": "D1:2", "text": "def f():\n    return 1\n" * 400},
        ],
        "session_2_date_time": "2023-06-01T09:30:00",
        "session_2": [
            {"speaker": "user", "dia_id": "D2:1", "text": "Look", "blip_caption": "a photo of a cat"},
        ],
    },
    "qa": [
        {"question": "Which error?", "answer": "E1203", "evidence": ["D1:1"], "category": 4},
        {"question": "When?", "answer": 2023, "evidence": ["D1:1; D2:1"], "category": 2},
        {"question": "Never said", "adversarial_answer": "x", "evidence": ["D1:1"], "category": 5},
        {"question": "What code?", "answer": "return 1", "evidence": ["D:1:2"], "category": 5, "ability": "code"},
        {"question": "Nowhere", "answer": "y", "evidence": ["D9:9"], "category": 1},
    ],
}


def test_evidence_ids_split_lists_and_mend_the_stray_colon():
    assert _evidence_ids(["D8:6; D9:17", "D:11:26", "D3:4", "nonsense", "D2"]) == ["D8:6", "D9:17", "D11:26", "D3:4"]


def test_a_question_naming_its_ability_takes_it_as_its_category_whatever_its_number():
    assert category_name({"category": 5, "ability": "debugging"}) == "debugging"
    assert category_name({"category": 2, "ability": "  preferences "}) == "preferences"
    assert category_name({"category": 2}) == "temporal"
    assert category_name({"category": 5}) is None
    assert category_name({"category": 1, "ability": ""}) == "multi-hop"


def test_load_reads_turns_answers_and_categories(tmp_path):
    path = tmp_path / "sessions.json"
    path.write_text(json.dumps([CONVERSATION]))
    (conversation,) = load(path)
    assert [t.dia_id for t in conversation.turns] == ["D1:1", "D1:2", "D2:1"]
    assert conversation.turns[0].message == "user: My build fails with E1203."
    assert conversation.turns[0].occurred_at == "2023-05-08T13:56:00Z"
    assert conversation.turns[1].message.startswith("assistant: def f():\n")
    assert len(conversation.turns[1].message) > 8000
    assert conversation.turns[2].message == "user: Look [shares a photo of a cat]"
    assert conversation.turns[2].occurred_at == "2023-06-01T09:30:00Z"
    asked = [(q.text, q.category, q.evidence, q.answer) for q in conversation.questions]
    assert asked == [
        ("Which error?", "single-hop", {"D1:1"}, "E1203"),
        ("When?", "temporal", {"D1:1", "D2:1"}, "2023"),
        ("What code?", "code", {"D1:2"}, "return 1"),
    ]


def _question(category: str, evidence: set[str]) -> Question:
    return Question("q", category, evidence)


def test_recall_is_grouped_by_category_name_all_first_then_in_order_of_first_question():
    answers = [
        (_question("planning", {"D1:1"}), ["D1:1"]),
        (_question("debugging", {"D1:1", "D1:2"}), ["D2:1"] * 5 + ["D1:2"]),
        (_question("planning", {"D1:3"}), []),
    ]
    table = recall_table(answers)
    assert list(table) == ["all", "planning", "debugging"]
    assert table["planning"] == (0.5, 0.5, 0.5, 2)
    assert table["debugging"] == (0.0, 0.5, 1 / 6, 1)
    assert summary(answers).splitlines()[1].split() == [
        "planning", "recall@5", "0.500", "recall@10", "0.500", "MRR", "0.500", "(2", "questions)",
    ]  # fmt: skip


def test_a_category_where_the_server_ranks_below_the_better_of_its_parts_is_flagged():
    first, second = _question("temporal", {"D1:1"}), _question("single-hop", {"D2:2"})
    server = [Answer(first, ["D1:1"]), Answer(second, ["D9:9"])]
    cosine = [Answer(first, ["D9:9"]), Answer(second, ["D9:9"])]
    bm25 = [Answer(first, ["D1:1"]), Answer(second, ["D2:2"])]
    lines = {line.split()[0]: line for line in beside_parts(server, cosine, bm25).splitlines()[1:]}
    assert lines["temporal"].endswith("not below its parts")
    assert lines["single-hop"].split()[1:4] == ["0.000", "0.000", "1.000"]
    assert lines["single-hop"].endswith("BELOW max(cosine, BM25) by 1.000")
    assert lines["all"].endswith("BELOW max(cosine, BM25) by 0.500")


def test_an_answer_keeps_which_shown_turns_each_result_is_labelled_the_successor_of():
    question = Question("What's the build cache now?", "knowledge-update", {"D3:1"}, "S3", {"D1:2"})
    results = [
        {"id": "a", "content": "now S3", "metadata": {"dia_id": "D3:1"}, "restates": "b", "supersedes": ["z"]},
        {"id": "b", "content": "a local disk", "metadata": {"dia_id": "D1:2"}},
        {"id": "c", "content": "unrelated", "metadata": {"dia_id": "D2:5"}, "supersedes": ["b"]},
    ]

    answer = _answer(question, results, {})

    assert answer.dia_ids == ["D3:1", "D1:2", "D2:5"]
    assert answer.succeeds == {0: {"D1:2"}, 1: set(), 2: {"D1:2"}}  # "z" is no shown turn

"""A memory too long for what is left of build_context's budget is packed as an excerpt of it (the
lines the question names, the lines beside them, its opening), not left out."""

from __future__ import annotations

import pytest

from memory.search.conductor import memory_build_context
from memory.search.excerpts import GAP, excerpt
from memory.selectors import memory_get_for_actor

pytestmark = pytest.mark.django_db

# A working session's turn: a page of setup, the value asked for deep inside it, a page after.
RUNBOOK = "\n".join(
    [
        "Here's the full runbook for the ingest service, section by section.",
        *(f"Step {n}: check that the staging bucket holds yesterday's batch {n} before moving on." for n in range(30)),
        "```yaml",
        "service: ingester",
        "metrics:",
        "  prometheus_port: 9102",
        "  path: /metrics",
        "```",
        "The ingester serves Prometheus metrics on the port above; the scrape job reads it every 15 seconds.",
        *(f"Afterwards, rotate log {n} and archive it to cold storage within the week." for n in range(30)),
    ]
)


def test_the_excerpt_keeps_the_lines_a_question_names_and_those_beside_them_within_its_tokens():
    cut = excerpt(RUNBOOK, "Which port does the ingester serve Prometheus metrics on?", 100)

    assert len(cut) <= 4 * 100
    assert "The ingester serves Prometheus metrics on the port above" in cut
    assert "prometheus_port: 9102" in cut, "the lines naming the question's rarest words"
    assert "Step 1:" not in cut and "rotate log 29" not in cut, "what names none of them is left out"
    assert GAP.strip() in cut, "where something was left out is marked"


def test_the_excerpt_keeps_the_order_of_what_it_keeps():
    cut = excerpt(RUNBOOK, "Which port does the ingester serve Prometheus metrics on?", 100)

    assert cut.index("prometheus_port: 9102") < cut.index("The ingester serves Prometheus metrics")


def test_a_memory_within_its_tokens_is_whole():
    said = "The ingester serves Prometheus metrics on port 9102."

    assert excerpt(said, "Which port?", 100) == said


def test_an_identifier_is_read_by_its_parts():
    lines = [f"Line {n} of an unrelated configuration block." for n in range(40)]
    lines[25] = "tasks.register(publishReleaseBundle)"

    cut = excerpt("\n".join(lines), "Publish the release bundle on every tag.", 30)

    assert "publishReleaseBundle" in cut


def test_build_context_packs_a_long_memory_it_cannot_fit_whole_as_an_excerpt(team, add):
    runbook = add(RUNBOOK, extract=False)["memory_ids"][0]
    for n in range(6):
        add(f"The ingester's batch {n} landed in the warehouse on time.", extract=False)

    packed = memory_build_context(
        actor=team["writer"],
        query="Which port does the ingester serve Prometheus metrics on?",
        user_id="bob",
        token_budget=400,
    )

    by_id = {m["id"]: m for m in packed["memories"]}
    assert runbook in by_id and by_id[runbook]["excerpt"] is True
    assert "prometheus_port: 9102" in by_id[runbook]["content"] and "9102" in packed["context"]
    assert by_id[runbook]["tokens"] <= 400 // 5, "in at most a fifth of the budget"
    assert len(packed["memories"]) >= 5, "the shorter memories are packed beside it"
    assert packed["tokens"] <= 400 and sum(m["tokens"] for m in packed["memories"]) == packed["tokens"]
    whole = memory_get_for_actor(actor=team["writer"], memory_id=runbook)
    assert whole.content == RUNBOOK, "the memory itself is whole, read by its id"


def test_build_context_packs_a_long_memory_whole_when_the_budget_holds_it(team, add):
    runbook = add(RUNBOOK, extract=False)["memory_ids"][0]

    packed = memory_build_context(
        actor=team["writer"], query="Which port does the ingester serve Prometheus metrics on?", user_id="bob"
    )
    roomy = memory_build_context(
        actor=team["writer"],
        query="Which port does the ingester serve Prometheus metrics on?",
        user_id="bob",
        token_budget=4000,
    )

    assert [(m["id"], m.get("excerpt", False)) for m in packed["memories"]] == [(runbook, True)], "the default 800"
    assert [(m["id"], m["content"]) for m in roomy["memories"]] == [(runbook, RUNBOOK)]
    assert "excerpt" not in roomy["memories"][0]

"""Two statements that differ in any number, date, identifier or name are two facts: never
merged, linked as the same fact, or updated into each other, whoever decides (rules or LLM)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.ingest.atoms import Atom
from memory.ingest.candidates import Candidate
from memory.ingest.decide import LLMDecision, Op, decide
from memory.models import Memory
from memory.providers.llm import CallBudget

TEMPLATES = [
    "During the outage ticket {} was opened.",
    "The staging database listens on port {}.",
    "bob met {} at the conference.",
    "The invoice {} was paid in full.",
    "The deploy was scheduled for {}.",
    "Nginx reads its settings from {}.",
]
NUMBERS = st.integers(min_value=0, max_value=99_999).map(str)
IDENTIFIERS = st.from_regex(r"[A-Z]{2,4}-[0-9]{1,4}", fullmatch=True)
NAMES = st.sampled_from(["Alice", "Bruno", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana", "Ines", "Jonas"])
DATES = st.dates().map(lambda day: day.isoformat())
PATHS = st.from_regex(r"/etc/[a-z]{1,8}/[a-z]{1,8}\.conf", fullmatch=True)
VALUES = st.one_of(NUMBERS, IDENTIFIERS, NAMES, DATES, PATHS)
MERGES = [Op.NOOP, Op.UPDATE, Op.LINK_EXISTING]


class AlwaysMerges:
    """An LLM that answers every item with ``op`` onto its first candidate, confidently."""

    enabled, provider, model = True, "stub", "stub"

    def __init__(self, op: Op) -> None:
        self.op = op

    def complete_json(self, *, schema: Any, prompt: str, **options: Any) -> Any:
        items = json.loads(prompt)["items"]
        decisions = [
            LLMDecision(index=item["index"], op=self.op.value, target_id=item["candidates"][0]["id"], confidence=0.97)
            for item in items
        ]
        return schema(decisions=decisions)


def decided(new: str, old: str, *, cosine: float, llm: Any) -> Op:
    stored = Memory(id=uuid.uuid4(), content=old, memory_type="fact", facets={"negated": False}, source="extraction")
    decision = decide(
        atoms=[Atom(content=new)],
        candidates=[[Candidate(memory=stored, cosine=cosine)]],
        keys=["a key that is not stored"],
        llm=llm,
        budget=CallBudget(2),
    )[0]
    return decision.op


class NoLLM:
    enabled, provider, model = False, "none", ""


@settings(max_examples=150, deadline=None)
@given(
    template=st.sampled_from(TEMPLATES),
    values=st.lists(VALUES, min_size=2, max_size=2, unique_by=str.lower),
    cosine=st.sampled_from([0.75, 0.9, 0.95, 0.99]),
    decider=st.sampled_from([None, *MERGES]),
)
def test_statements_differing_in_a_specific_are_never_merged(template, values, cosine, decider):
    old, new = template.format(values[0]), template.format(values[1])
    llm = NoLLM() if decider is None else AlwaysMerges(decider)

    assert decided(new, old, cosine=cosine, llm=llm) not in (Op.NOOP, Op.UPDATE, Op.LINK_EXISTING)


@pytest.mark.parametrize("op", MERGES)
def test_the_same_statement_reworded_may_still_be_merged_by_the_llm(op):
    old, new = "The staging database listens on port 5432.", "Port 5432 is where the staging database listens."

    assert decided(new, old, cosine=0.95, llm=AlwaysMerges(op)) == op


@pytest.mark.django_db
def test_thirty_tickets_are_thirty_memories(add):
    for number in range(30):
        add(f"During the outage ticket {number} was opened.", extract=False)

    contents = sorted(Memory.objects.filter(user_id="bob").values_list("content", flat=True))
    assert contents == sorted(f"During the outage ticket {n} was opened." for n in range(30))

"""What each statement of an ingest run became, as the run logged it: the statement (its extract
stage), the decision on it (its decide stage, as its values stage revised it) and the memory
holding it after the run (its apply stage). Read for a page of runs in one query of their stages;
a run that failed before a stage has statements without a decision or a memory.

A memory a run names may have been erased since: the room names it as gone, not as a link."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memory.models import IngestStage, Memory
from stewardship.states import MemoryState, memory_states

LOGGED_IN = ("extract", "decide", "values", "apply")
WRITTEN = {"memory_ids": "new", "updated": "updated"}


@dataclass(frozen=True)
class AtomOutcome:
    text: str
    op: str  # ADD, UPDATE, SUPERSEDE, CONTRADICT, LINK_EXISTING, NOOP; "" when nothing was decided
    reason: str = ""
    memory_id: str | None = None  # the memory holding the statement after the run
    target_id: str | None = None  # the stored memory the decision acted on


@dataclass(frozen=True)
class MemoryRef:
    """A memory a run names, as it is now: its text and state, or gone (erased since)."""

    id: str
    content: str | None = None
    state: MemoryState | None = None
    written: str = ""  # "new" or "updated" when this run wrote it

    @property
    def gone(self) -> bool:
        return self.content is None


def run_atom_outcomes(*, run_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, list[AtomOutcome]]:
    """Each run's statements in order, with their outcomes; a run that logged none is left out."""
    logged: dict[uuid.UUID, dict[str, dict[str, Any]]] = {}
    stages = IngestStage.objects.filter(run_id__in=list(run_ids), name__in=LOGGED_IN)
    for run_id, name, output in stages.values_list("run_id", "name", "output"):
        logged.setdefault(run_id, {})[name] = output if isinstance(output, dict) else {}
    return {run_id: _outcomes(outputs) for run_id, outputs in logged.items()}


def _outcomes(outputs: dict[str, dict[str, Any]]) -> list[AtomOutcome]:
    statements = outputs.get("extract", {}).get("atoms") or []
    decided = outputs.get("decide", {}).get("decisions") or []
    revised = outputs.get("values", {}).get("revised") or {}
    holders = outputs.get("apply", {}).get("holders") or {}
    found = []
    for index, text in enumerate(statements):
        decision = revised.get(str(index)) or (decided[index] if index < len(decided) else {})
        found.append(
            AtomOutcome(
                text=str(text),
                op=str(decision.get("op") or ""),
                reason=str(decision.get("reason") or ""),
                memory_id=holders.get(str(index)),
                target_id=decision.get("target"),
            )
        )
    return found


def run_memories(*, outcomes: list[AtomOutcome], result: dict[str, Any]) -> dict[str, MemoryRef]:
    """Every memory the run's statements name (by id as text), as it is now; which it wrote."""
    wanted = {i for outcome in outcomes for i in (outcome.memory_id, outcome.target_id) if i}
    written = {str(i): word for key, word in WRITTEN.items() for i in result.get(key) or []}
    wanted |= set(written)
    texts = {str(pk): content for pk, content in Memory.objects.filter(pk__in=wanted).values_list("id", "content")}
    states = memory_states(texts)
    return {key: MemoryRef(key, texts.get(key), states.get(key), written.get(key, "")) for key in sorted(wanted)}

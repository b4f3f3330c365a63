"""Stage 4: what to do with each atom.

Deterministic gates first: the exact fingerprint → NOOP; a stored value of the same
single-valued attribute → SUPERSEDE or CONTRADICT; cosine ≥ 0.98 → NOOP (never for
preference, goal or opinion); nothing ≥ 0.70 → ADD. The grey zone in between goes to
one batched LLM call for all atoms of the message, or to rules when there is no LLM.
"""

from __future__ import annotations

import enum
import json
import re
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from pydantic import BaseModel, Field

from memory.ingest.atoms import PROTECTED_TYPES, Atom
from memory.ingest.candidates import Candidate
from memory.ingest.english.attributes import holders_differ
from memory.ingest.english.changes import (
    amounts,
    names_all,
    replaced_kind,
    says_amount_changed,
    stance,
    without_amounts,
)
from memory.ingest.english.negation import is_negated, without_negation
from memory.ingest.english.topics import content_words, topic_words
from memory.ingest.english.values import stated
from memory.models import MemorySource, MemoryType
from memory.providers import LLM, LLMUnavailable
from memory.providers.llm import CallBudget


class Op(enum.StrEnum):
    ADD = "ADD"
    UPDATE = "UPDATE"
    SUPERSEDE = "SUPERSEDE"
    CONTRADICT = "CONTRADICT"
    LINK_EXISTING = "LINK_EXISTING"
    NOOP = "NOOP"


REWRITES = {Op.UPDATE, Op.SUPERSEDE}
QUOTED_WORDS = 16  # of a stored memory a reason quotes


@dataclass
class Decision:
    op: Op
    target: Candidate | None = None
    confidence: float = 1.0
    reason: str = ""
    method: str = "gate"
    relates_to: list[uuid.UUID] = field(default_factory=list)
    clarification: str | None = None

    def as_log(self) -> dict:
        return {
            "op": self.op.value,
            "target": str(self.target.memory.id) if self.target else None,
            "cosine": self.target.cosine if self.target else None,
            "confidence": self.confidence,
            "reason": self.reason,
            "method": self.method,
            "relates_to": [str(i) for i in self.relates_to],
            "clarification": self.clarification,
        }


def decide(
    *,
    atoms: list[Atom],
    candidates: list[list[Candidate]],
    keys: list[str],
    llm: LLM,
    budget: CallBudget,
    run_id=None,
) -> list[Decision]:
    decisions: list[Decision | None] = [
        _gate(atom, found, key) for atom, found, key in zip(atoms, candidates, keys, strict=True)
    ]
    grey = [i for i, decision in enumerate(decisions) if decision is None]
    if grey and llm.enabled and budget.left > 0:
        decisions = _llm_decisions(atoms, candidates, decisions, grey, llm, budget, run_id)
    final = [d if d is not None else decide_by_rules(atoms[i], candidates[i]) for i, d in enumerate(decisions)]
    return [_guarded(atom, decision) for atom, decision in zip(atoms, final, strict=True)]


def _gate(atom: Atom, found: list[Candidate], key: str) -> Decision | None:
    exact = next((c for c in found if c.memory.content_key == key), None)
    if exact:
        return Decision(Op.NOOP, exact, 1.0, "the same statement is stored already")
    conflict = (
        _attribute_conflict(atom, found)
        or _change_conflict(atom, found)
        or _stance_conflict(atom, found)
        or _amount_conflict(atom, found)
        or _kind_conflict(atom, found)
    )
    if conflict:
        return conflict
    best = found[0] if found else None
    if best is None or best.cosine < settings.HELIX_DEDUP_RELATED_THRESHOLD:
        return Decision(Op.ADD, None, 1.0, "nothing similar is stored")
    near_identical = best.cosine >= settings.HELIX_DEDUP_DUPLICATE_THRESHOLD and atom.memory_type not in PROTECTED_TYPES
    if near_identical and not _negation_differs(atom, best) and not _specifics_differ(atom, best):
        return Decision(Op.NOOP, best, best.cosine, f"near-identical to a stored memory (cosine {best.cosine:.3f})")
    return None


def _attribute_conflict(atom: Atom, found: list[Candidate]) -> Decision | None:
    """The same single-valued attribute with another value, or the same value denied."""
    if atom.attribute is None:
        return None
    adds = atom.change is not None and atom.change.kind == "adds"  # "I also joined the chess club"
    for candidate in found:
        stored = candidate.memory.facets.get("attribute")
        if not stored or stored[:2] != [atom.attribute.subject, atom.attribute.name]:
            continue
        same_value = stored[2] == atom.attribute.value
        denied = _denies(atom.content, atom.attribute.value)
        negation_differs = _denies(candidate.memory.content, stored[2]) != denied
        name = atom.attribute.name
        if not same_value and not denied and not adds and (atom.attribute.single_valued or atom.change_cue):
            confidence = 0.9 if atom.change_cue else 0.8
            reason = f"{name} changed from {stored[2]!r} to {atom.attribute.value!r}"
            return Decision(Op.SUPERSEDE, candidate, confidence, reason, method="rules")
        if same_value and negation_differs:
            if atom.change_cue:
                return Decision(Op.SUPERSEDE, candidate, 0.85, f"{name} {stored[2]!r} no longer holds", method="rules")
            return Decision(Op.CONTRADICT, candidate, 0.85, f"denies the stored {name} {stored[2]!r}", method="rules")
    return None


def _denies(content: str, value: str) -> bool:
    """Whether a statement denies its attribute's value: a denial before the value ("bob does
    not live in Toronto"), not one of a later clause ("when bob moved to Lisbon bob didn't speak
    Portuguese")."""
    at = content.lower().find(value)
    return is_negated(content[:at] if at > 0 else content)


def _change_conflict(atom: Atom, found: list[Candidate]) -> Decision | None:
    """A statement that ends, reschedules or retracts a thing it names ("I left Acme", "the
    launch is pushed back to March", "the note about the Berlin trip was wrong"): the stored
    memory that says that thing is the one it changes. Ends and reschedules must name every
    word of the thing; a retraction, being explicit, shares half the words of the shorter of
    the two ("the note about the Berlin trip was wrong" retracts "flying to Berlin in May")."""
    change = atom.change
    if change is None or change.kind == "adds" or not change.topic:
        return None
    topic = set(change.topic.split())
    # A turn kept whole (raw) names many things in passing ("Lunch break session. Found another
    # thing: …"): it is not the memory that says the thing ("Back to work, lunch is over").
    others = [
        c for c in found if c.memory.facets.get("change") != change.as_list() and c.memory.memory_type != MemoryType.RAW
    ]
    if change.kind == "retracts":
        scored = [(_shared(topic, c), c) for c in others]
        share, target = max(scored, key=lambda pair: pair[0], default=(0.0, None))
        if target is None or share < 0.5:
            return None
        return Decision(Op.CONTRADICT, target, 0.9, f"retracts {_quoted(target)}", method="rules")
    # "I quit coffee" ends "I drink three espressos a day" (an espresso is coffee), but not "my
    # sister drinks espresso".
    target = next(
        (
            c
            for c in others
            if names_all(topic, c.memory.content) and not holders_differ(atom.content, c.memory.content)
        ),
        None,
    )
    if target is None:
        return None
    verb = "moved to another date" if change.kind == "reschedules" else "no longer holds"
    return Decision(Op.SUPERSEDE, target, 0.9, f"{_quoted(target)} {verb}", method="rules")


def _quoted(candidate: Candidate) -> str:
    """The stored memory a change acts on, in its own words, for the reason a review or a run
    shows: the change's topic is rough stems ("allergic negativ peanut test"), kept for matching."""
    words = candidate.memory.content.split()
    return "“" + " ".join(words[:QUOTED_WORDS]) + (" …" if len(words) > QUOTED_WORDS else "") + "”"


def _stance_conflict(atom: Atom, found: list[Candidate]) -> Decision | None:
    """The other side taken on the same thing by the same person ("I can't stand jazz anymore"
    after "I love jazz"): a change when the statement says it changed, else a contradiction."""
    new = stance(atom.content)
    if new is None or not new[1]:
        return None
    for candidate in found:
        old = stance(candidate.memory.content)
        if old is None or old[0] == new[0] or old[1] != new[1]:
            continue
        if atom.change_cue:
            return Decision(Op.SUPERSEDE, candidate, 0.85, "the same thing, now the other way", method="rules")
        return Decision(Op.CONTRADICT, candidate, 0.85, "takes the other side on the same thing", method="rules")
    return None


def _amount_conflict(atom: Atom, found: list[Candidate]) -> Decision | None:
    """The same statement of the same person with another number, said to have changed ("I now
    run 10 km every morning" after "I run 5 km every morning"). A number told of one occasion
    ("yesterday I ran 5 km in 25 minutes") says no change."""
    if atom.values:  # a thing's value said: the value updates decide (memory.ingest.updates)
        return None
    said = stated(atom.content)  # a number in code or in a question changes nothing
    new_amounts = amounts(said)
    if not new_amounts or not says_amount_changed(said):
        return None
    new_words = without_amounts(said)
    for candidate in found:
        old_amounts = amounts(candidate.memory.content)
        if not old_amounts or old_amounts == new_amounts or holders_differ(atom.content, candidate.memory.content):
            continue
        old_words = without_amounts(candidate.memory.content)
        if old_words <= new_words or len(old_words & new_words) / max(len(old_words | new_words), 1) >= 0.6:
            reason = f"the amount changed from {' '.join(sorted(old_amounts))} to {' '.join(sorted(new_amounts))}"
            return Decision(Op.SUPERSEDE, candidate, 0.85, reason, method="rules")
    return None


def _kind_conflict(atom: Atom, found: list[Candidate]) -> Decision | None:
    """Another thing of a kind said to be the one now ("I've got a Kia EV6 now" after "my car is
    a Ford Focus", "I switched to a Pixel 8" after "I have an iPhone 12"). A thing added beside
    it ("a second car", "a Kia as well") or denied replaces nothing."""
    if not atom.change_cue or atom.negated or (atom.change is not None and atom.change.kind == "adds"):
        return None
    for candidate in found:
        kind = replaced_kind(atom.content, candidate.memory.content)
        if kind and not holders_differ(atom.content, candidate.memory.content):
            return Decision(Op.SUPERSEDE, candidate, 0.85, f"one {kind} for another", method="rules")
    return None


def _shared(topic: set[str], candidate: Candidate) -> float:
    said = topic_words(candidate.memory.content) - {candidate.memory.user_id.lower()}
    return len(topic & said) / max(min(len(topic), len(said)), 1)


def decide_by_rules(atom: Atom, found: list[Candidate]) -> Decision:
    best = found[0]
    new_words, old_words = content_words(atom.content), content_words(best.memory.content)
    if _negation_differs(atom, best):
        if atom.negated and _cue_of_ending(atom):
            return Decision(Op.SUPERSEDE, best, 0.85, "the stored statement no longer holds", method="rules")
        return Decision(Op.CONTRADICT, best, 0.85, "an explicit negation of a stored statement", method="rules")
    related = [c.memory.id for c in found if c.cosine >= settings.HELIX_DEDUP_RELATED_THRESHOLD][:3]
    if atom.memory_type in PROTECTED_TYPES or best.memory.memory_type in PROTECTED_TYPES:
        return Decision(Op.ADD, None, 0.8, "preferences, goals and opinions are never merged", "rules", related)
    if _holders_differ(atom, best):
        return Decision(Op.ADD, None, 0.8, "the same attribute of another person", "rules", related)
    jaccard = len(new_words & old_words) / max(len(new_words | old_words), 1)
    if old_words < new_words:
        if _rewritable(best):
            return Decision(Op.UPDATE, best, 0.8, "a more specific restatement of a stored memory", method="rules")
        return Decision(Op.ADD, None, 0.8, "adds detail to a memory that is never rewritten", "rules", related)
    if new_words <= old_words:
        return Decision(Op.LINK_EXISTING, best, 0.8, "nothing new: a stored memory says this already", method="rules")
    if best.cosine >= 0.9 and jaccard >= 0.5 and not _specifics_differ(atom, best):
        return Decision(
            Op.NOOP, best, 0.75, f"a paraphrase of a stored memory (cosine {best.cosine:.3f})", method="rules"
        )
    return Decision(Op.ADD, None, 0.7, "related to stored memories but distinct", "rules", related)


def _holders_differ(atom: Atom, candidate: Candidate) -> bool:
    """Whether the atom gives another person's attribute than the candidate: "zara's husband lives
    in Karachi with zara" holds every word of "zara lives in Karachi" and restates nothing of it."""
    stored = candidate.memory.facets.get("attribute")
    return atom.attribute is not None and bool(stored) and stored[0] != atom.attribute.subject


def _cue_of_ending(atom: Atom) -> bool:
    return bool(atom.change_cue) or any(w in atom.content.lower() for w in ("no longer", "anymore", "stopped", "quit"))


def _negation_differs(atom: Atom, candidate: Candidate) -> bool:
    """Same statement, one side denied: 'alice likes sushi' vs 'alice does not like sushi'."""
    stored_negated = bool(candidate.memory.facets.get("negated", is_negated(candidate.memory.content)))
    if stored_negated == atom.negated:
        return False
    new, old = without_negation(atom.content), without_negation(candidate.memory.content)
    new, old = {w.rstrip("s") for w in new}, {w.rstrip("s") for w in old}
    return len(new & old) / max(len(new | old), 1) >= 0.6


# Numbers and dates, identifiers (CAPS, paths), and names: capitalized words inside a sentence.
_SPECIFIC = re.compile(r"\b\d[\w.:/\-]*|\b[A-Z]{2,}[\w\-]*|\b[\w.\-]*/[\w./\-]+|(?<![.!?]\s)(?<!^)\b[A-Z][a-z][\w\-]*")


def specifics(text: str) -> set[str]:
    return {token.lower().rstrip(".:/-") for token in _SPECIFIC.findall(text)}


def _specifics_differ(atom: Atom, candidate: Candidate) -> bool:
    """Numbers, dates, identifiers, paths and names tell facts apart however alike the
    sentences are: 'ticket 0' and 'ticket 14', 'port 8001' and 'port 8002' are two facts."""
    return specifics(atom.content) != specifics(candidate.memory.content)


def _specifics_conflict(atom: Atom, candidate: Candidate, op: Op) -> bool:
    """A merge that would lose or swap a specific: an UPDATE must keep every specific of the
    stored memory (it may add some: 'Postgres' → 'Postgres 16'); a NOOP or LINK_EXISTING may
    bring none the stored memory lacks ('ticket 0' is not 'ticket 14')."""
    new, old = specifics(atom.content), specifics(candidate.memory.content)
    return not old <= new if op == Op.UPDATE else not new <= old


def _rewritable(candidate: Candidate) -> bool:
    memory = candidate.memory
    return not memory.immutable and memory.source != MemorySource.RAW_INPUT


def _guarded(atom: Atom, decision: Decision) -> Decision:
    """The charter, whoever decided: protected types are never merged, immutable and raw
    memories never rewritten, and a rewrite under the confidence floor waits for a person."""
    target = decision.target
    if decision.op == Op.UPDATE and target and not _rewritable(target):
        return Decision(
            Op.ADD, None, decision.confidence, "the target is never rewritten", decision.method, [target.memory.id]
        )
    merged = (
        decision.op in (Op.UPDATE, Op.NOOP, Op.LINK_EXISTING)
        and decision.reason != "the same statement is stored already"
    )
    if merged and target and _specifics_conflict(atom, target, decision.op):
        return Decision(
            Op.ADD,
            None,
            decision.confidence,
            "numbers, dates, identifiers or names differ: a distinct fact",
            decision.method,
            [target.memory.id],
        )
    if merged and target and PROTECTED_TYPES & {atom.memory_type, target.memory.memory_type}:
        return Decision(
            Op.ADD,
            None,
            decision.confidence,
            "preferences, goals and opinions are never merged",
            decision.method,
            [target.memory.id],
        )
    if decision.op in REWRITES and decision.confidence < settings.HELIX_REWRITE_MIN_CONFIDENCE and target:
        question = f'Does "{atom.content}" replace "{target.memory.content}"?'
        return Decision(
            Op.ADD,
            None,
            decision.confidence,
            f"unsure ({decision.reason}); kept both",
            decision.method,
            [target.memory.id],
            question,
        )
    return decision


# --- the LLM path ----------------------------------------------------------------------------


class LLMDecision(BaseModel):
    index: int
    op: str = Field(pattern="^(ADD|UPDATE|SUPERSEDE|CONTRADICT|LINK_EXISTING|NOOP|DELETE)$")
    target_id: str | None = None
    confidence: float = Field(ge=0, le=1)
    reason: str = Field(default="", max_length=500)


class LLMDecisionReply(BaseModel):
    decisions: list[LLMDecision]


_SYSTEM = """You decide how new statements relate to stored memories of the same person.
For each item choose one op:
ADD (new information), UPDATE (the new statement is a more specific restatement of target: it replaces
the target's wording), SUPERSEDE (same subject and attribute with a changed value, or the target no
longer holds), CONTRADICT (the new statement denies the target, both are kept), LINK_EXISTING (nothing
new: the target already says it), NOOP (the same fact as the target). DELETE is never executed: use
SUPERSEDE. target_id must be one of the item's candidate ids (none for ADD). confidence is 0 to 1."""


def _llm_decisions(atoms, candidates, decisions, grey, llm, budget, run_id):
    items = [
        {
            "index": i,
            "new": {"content": atoms[i].content, "type": atoms[i].memory_type},
            "candidates": [
                {"id": str(c.memory.id), "content": c.memory.content, "type": c.memory.memory_type, "cosine": c.cosine}
                for c in candidates[i][:5]
            ],
        }
        for i in grey
    ]
    try:
        reply = llm.complete_json(
            purpose="decide",
            system=_SYSTEM,
            prompt=json.dumps({"items": items}, ensure_ascii=False),
            schema=LLMDecisionReply,
            run_id=run_id,
            budget=budget,
        )
    except LLMUnavailable:
        return decisions
    by_index = {d.index: d for d in reply.decisions if d.index in grey}
    result = list(decisions)
    for i, proposal in by_index.items():
        result[i] = _from_llm(proposal, candidates[i])
    return result


def _from_llm(proposal: LLMDecision, found: list[Candidate]) -> Decision | None:
    op = Op.SUPERSEDE if proposal.op == "DELETE" else Op(proposal.op)
    target = next((c for c in found if str(c.memory.id) == proposal.target_id), None)
    if op != Op.ADD and target is None:
        return None  # an answer about a memory that is not a candidate: the rules decide
    reason = proposal.reason or op.value.lower()
    if proposal.op == "DELETE":
        reason = f"proposed DELETE, executed as SUPERSEDE: {reason}"
    related = [found[0].memory.id] if op == Op.ADD and found else []
    return Decision(op, target if op != Op.ADD else None, round(proposal.confidence, 3), reason, "llm", related)

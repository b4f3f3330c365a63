"""Stage 4b, between decide and apply: later values. A new memory that gives a thing another value
than a current memory of the same owner gave it ("the build now takes four minutes since we cached
the images" after "our build takes about twelve minutes": ``memory.ingest.english.values``) is
that memory's successor:

- a stored memory that said only that (one short statement) is superseded, as a SUPERSEDE
  decision supersedes it: ``valid_to``, a SUPERSEDES edge, a history row;
- a longer one, a turn that says other things too, stays current and gets a SUPERSEDES edge from
  the new memory: superseded in part (``superseded_in_part`` in add_memory's answer).

Read in every mode: a verbatim turn is one memory, and the decision rules for extracted facts
never see the statements inside it. The stored memories looked at are the atom's candidates (the
owner's current memories in the write domain; those holding a value of the same thing are among
them, ``memory.ingest.candidates``), said by the same speaker. A merge the decision proposed with
a memory holding another value of the same thing (a NOOP, a link, a rewrite) becomes an ADD: the
new value is stored, not lost in the old; so does a whole supersession another rule proposed of a
longer turn that says other things too (it is superseded in part), and any rule's whole supersession
of a turn kept whole (a raw memory, which says other things too).

A long turn often gives its new value in one sentence among others ("Bunch of things. First, the
ops demo is on the 24th now — …"), naming the thing otherwise than the earlier statement did ("Ines
asked if it'll be ready for the ops demo on March 3"): no key joins the two, and the whole turn is
far in meaning from the earlier one. So each sentence of such a turn that says a change (an update
word and a value: ``change_sentences``) is embedded with the turn and looks for its own nearest
memories of the owner; the nearest one it may update (said in an earlier conversation, by the same
speaker or by the assistant, which set up what the owner later changes; itself giving a value) at
least ``HELIX_INGEST_UPDATE_SIMILARITY`` near to the sentence is superseded in part: it stays
current, with a SUPERSEDES edge from the new memory, which search ranks above it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from memory.ingest.atoms import Atom
from memory.ingest.candidates import Candidate
from memory.ingest.decide import Decision, Op
from memory.ingest.english.changes import holds_value, says_a_change
from memory.ingest.english.values import (
    SENTENCE_CHARS,
    SENTENCES,
    HeldValue,
    ValueStatement,
    held_values,
    read_values,
    replaces,
    statements_of,
)
from memory.ingest.extract import ASSISTANT, speaker_label
from memory.models import Memory, MemoryType

# A stored memory is superseded whole when it is one statement of at most this many words: its
# only substance is the value updated. A longer one holds other things, which stay current.
SHORT_WORDS = 20
MARKED_CONFIDENCE = 0.9  # "now", "since", "went up to": the statement says it is an update
PLAIN_CONFIDENCE = 0.8  # another quantity of the same thing, said plainly in the present
NEAR_CONFIDENCE = 0.7  # a sentence saying a change, near in meaning to what it updates
CHANGE_SENTENCES = 2  # of a turn, embedded to find what each updates
SAID_CHARS = 2000  # of a stored memory, read for a value
_MERGES = (Op.NOOP, Op.LINK_EXISTING, Op.UPDATE)


@dataclass(frozen=True)
class ValueUpdate:
    """A stored memory the new one gives another value than it held: superseded ``whole``, or in part."""

    target: Candidate
    whole: bool
    confidence: float
    reason: str


def value_updates(
    *,
    atoms: list[Atom],
    candidates: list[list[Candidate]],
    nearest: list[list[tuple[str, list[Candidate]]]],
    decisions: list[Decision],
    owner: str,
    said_at: datetime,
) -> tuple[list[Decision], list[list[ValueUpdate]]]:
    """Each atom's decision, revised for the values it updates, and the supersessions left to apply
    beside it (the decision's own SUPERSEDE is not repeated among them). ``nearest``: for each atom,
    each of its ``change_sentences`` with the owner's memories nearest to it, nearest first.
    ``said_at``: the message's event time; a memory of a later one is not updated by it (a
    conversation imported out of order)."""
    revised: list[Decision] = []
    beside: list[list[ValueUpdate]] = []
    for atom, found, near, decision in zip(atoms, candidates, nearest, decisions, strict=True):
        earlier = [c for c in found if c.memory.valid_from <= said_at]
        updates = _updates(atom, earlier, owner)
        updates += _near_updates(atom, near, said_at, {u.target.memory.id for u in updates})
        decision, rest = _revised(*_whole_turn_kept(decision, updates))
        revised.append(decision)
        beside.append(rest)
    return revised, beside


def change_sentences(atom: Atom) -> list[str]:
    """The sentences of a turn of several that say a change and give a value ("the ops demo is on
    the 24th now"), at most ``CHANGE_SENTENCES``, read among its first ``SENTENCES`` of at most
    ``SENTENCE_CHARS`` characters; none for the assistant's turns (an answer reports no change in
    the owner's world) or a statement said alone (the whole is compared already)."""
    if atom.speaker == ASSISTANT:
        return []
    sentences = statements_of(speaker_label(atom.content)[1])
    if len(sentences) < 2:
        return []
    found = [
        sentence
        for sentence in sentences[:SENTENCES]
        if len(sentence) <= SENTENCE_CHARS and says_a_change(sentence) and holds_value(sentence)
    ]
    return found[:CHANGE_SENTENCES]


def _near_updates(
    atom: Atom, nearest: list[tuple[str, list[Candidate]]], said_at: datetime, taken: set[uuid.UUID]
) -> list[ValueUpdate]:
    """For each change sentence, the nearest memory it may update, superseded in part."""
    similarity = settings.HELIX_INGEST_UPDATE_SIMILARITY
    updates: list[ValueUpdate] = []
    for sentence, found in nearest:
        target = next((c for c in found if _may_update(atom, c.memory, said_at)), None)
        if target is None or target.cosine < similarity or target.memory.id in taken:
            continue
        taken.add(target.memory.id)
        reason = f"a later value, said nearby in meaning ({target.cosine:.2f}): {sentence[:200]!r}"
        updates.append(ValueUpdate(target, False, NEAR_CONFIDENCE, reason))
    return updates


def _may_update(atom: Atom, memory: Memory, said_at: datetime) -> bool:
    """Said in an earlier conversation, by the same speaker or the assistant, and giving a value."""
    speaker = memory.facets.get("speaker")
    apart = (said_at - memory.valid_from).total_seconds()
    return (
        speaker in (atom.speaker, ASSISTANT)
        and apart > settings.HELIX_CONVERSATION_GAP_SECONDS
        and holds_value(speaker_label(memory.content[:SAID_CHARS])[1])
    )


def _updates(atom: Atom, found: list[Candidate], owner: str) -> list[ValueUpdate]:
    stated = [s for s in atom.values if not s.past and not s.additive]
    if not stated:
        return []
    updates = []
    for candidate in found:
        memory = candidate.memory
        if memory.facets.get("speaker") != atom.speaker:
            continue  # in a transcript, one speaker's "my rent" is not another's
        held = _held(memory, owner)
        changed = [(s, held[s.key]) for s in stated if s.key in held and replaces(s, held[s.key])]
        if not changed:
            continue
        marked = any(s.marked for s, _ in changed)
        whole = _says_only(memory.content, set(held), {s.key for s, _ in changed})
        confidence = MARKED_CONFIDENCE if marked else PLAIN_CONFIDENCE
        updates.append(ValueUpdate(candidate, whole, confidence, _reason(changed)))
    return updates


def _held(memory: Memory, owner: str) -> dict[str, HeldValue]:
    """The values a stored memory holds: from its facets, or read from its text when it was
    stored before values were read."""
    stored = memory.facets.get("values")
    if isinstance(stored, dict):
        return {key: HeldValue(str(v[0]), str(v[1]), bool(v[2])) for key, v in stored.items() if len(v) == 3}
    return held_values(read_values(memory.content, memory.facets.get("speaker") or owner))


def _says_only(content: str, held: set[str], changed: set[str]) -> bool:
    sentences = statements_of(content)
    return len(sentences) == 1 and len(sentences[0].split()) <= SHORT_WORDS and held <= changed


def _reason(changed: list[tuple[ValueStatement, HeldValue]]) -> str:
    parts = []
    for new, old in changed:
        if new.denied:
            parts.append(f"{new.thing}: {old.value!r} no longer holds")
        else:
            parts.append(f"{new.thing}: {old.value!r} is now {new.value!r}")
    return "a later value: " + "; ".join(parts)


def _revised(decision: Decision, updates: list[ValueUpdate]) -> tuple[Decision, list[ValueUpdate]]:
    if not updates:
        return decision, []
    targets = {u.target.memory.id for u in updates}
    in_part = {u.target.memory.id for u in updates if not u.whole}
    if decision.op == Op.SUPERSEDE and decision.target is not None and decision.target.memory.id in in_part:
        decision = _kept_apart(decision, targets)  # a longer turn says other things, which still hold
    if decision.op in _MERGES:
        if decision.target is None or decision.target.memory.id not in targets:
            return decision, []  # nothing new is stored: no successor to mark
        decision = _kept_apart(decision, targets)
    wholes = [u for u in updates if u.whole]
    target = decision.target.memory.id if decision.target else None
    # A denial of a stored value with an update marker is its update ("isn't db-2 anymore"); a
    # contradiction of another memory stays one, for its review.
    whole = None
    if decision.op == Op.CONTRADICT:
        whole = next((u for u in wholes if u.target.memory.id == target), None)
    elif decision.op == Op.ADD and wholes:
        whole = wholes[0]
    if whole is not None:
        related = [r for r in decision.relates_to if r not in targets]
        decision = Decision(Op.SUPERSEDE, whole.target, whole.confidence, whole.reason, "values", related)
    superseded = decision.target.memory.id if decision.op == Op.SUPERSEDE and decision.target else None
    return decision, [u for u in updates if u.target.memory.id != superseded]


def _whole_turn_kept(decision: Decision, updates: list[ValueUpdate]) -> tuple[Decision, list[ValueUpdate]]:
    """A rule's whole supersession of a turn kept whole (a raw memory: a long message, or the
    source of the facts extracted from it) is one in part: the turn says other things too, which
    still hold."""
    target = decision.target
    if decision.op != Op.SUPERSEDE or target is None or target.memory.memory_type != MemoryType.RAW:
        return decision, updates
    if all(u.target.memory.id != target.memory.id for u in updates):
        updates = [*updates, ValueUpdate(target, False, decision.confidence, decision.reason)]
    return decision, updates


def _kept_apart(decision: Decision, targets: set[uuid.UUID]) -> Decision:
    """A merge into a memory holding another value of the same thing, or the whole supersession of
    a longer one that holds other things too, made an ADD beside it."""
    related = [r for r in decision.relates_to if r not in targets]
    reason = f"stored beside what it updates, which stays current ({decision.op.value} proposed)"
    return Decision(Op.ADD, None, decision.confidence, reason, decision.method, related)

"""Stage 1: turn a message into atoms, with the LLM when one is configured, else by rules."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from memory.ingest.atoms import Atom, Attribute, EntityRef, Extraction
from memory.ingest.english import scores
from memory.ingest.english.attributes import find_attribute
from memory.ingest.english.changes import change_cue, find_change, holds_value
from memory.ingest.english.entities import find_entities
from memory.ingest.english.instructions import is_standing
from memory.ingest.english.memory_types import classify
from memory.ingest.english.negation import is_negated
from memory.ingest.english.person import attribute_first_person
from memory.ingest.english.sentences import (
    holds_code,
    is_chit_chat,
    is_question,
    split_clauses,
    split_sentences,
    strip_consequence_marker,
)
from memory.ingest.english.topics import STOPWORDS
from memory.ingest.english.values import read_values, said_by_the_assistant
from memory.ingest.self_contained import anchor_relative_dates, is_short_answer, resolve_short_answer
from memory.providers import LLM, LLMUnavailable
from memory.providers.llm import CallBudget

AtomType = Literal[
    "fact",
    "preference",
    "goal",
    "decision",
    "skill",
    "opinion",
    "event",
    "procedure",
    "observation",
    "conclusion",
    "health",
]


@dataclass
class Conversation:
    """What was said before the message: the assistant's last turn and a few recent turns."""

    previous_assistant: str = ""
    turns: list[dict[str, str]] = field(default_factory=list)

    @property
    def question(self) -> str | None:
        """The question the message may be answering (the last one the assistant asked)."""
        sentences = split_sentences(self.previous_assistant)
        questions = [s for s in sentences if is_question(s)]
        return questions[-1] if questions else None


def extract(
    *,
    message: str,
    subject: str,
    conversation: Conversation,
    now: datetime,
    verbatim: bool,
    max_atoms: int,
    llm: LLM,
    budget: CallBudget,
    run_id=None,
) -> Extraction:
    if verbatim:
        speaker, said = speaker_label(message)
        atom = _verbatim_atom(message, speaker or subject)
        atom.speaker = speaker or _assistant(message)
        atom.standing = not said_by_the_assistant(message) and is_standing(said)
        return Extraction(atoms=[atom], method="verbatim")
    if llm.enabled:
        try:
            extraction = _extract_with_llm(message, subject, conversation, now, max_atoms, llm, budget, run_id)
        except LLMUnavailable as exc:
            extraction = _by_rules(message, subject, conversation, now, max_atoms)
            extraction.method, extraction.problem = "rules_fallback", str(exc)
    else:
        extraction = _by_rules(message, subject, conversation, now, max_atoms)
    if said_by_the_assistant(message):
        for atom in extraction.atoms:
            atom.values = []  # what the assistant suggests is no one's value, however it is split
            atom.speaker = atom.speaker or ASSISTANT
    return extraction


# Who said an assistant's turn ("assistant: …"): not the owner, whose own turns name no speaker.
ASSISTANT = "assistant"


def _assistant(message: str) -> str | None:
    return ASSISTANT if said_by_the_assistant(message) else None


def _by_rules(message: str, subject: str, conversation: Conversation, now: datetime, max_atoms: int) -> Extraction:
    """A transcript's line ("Caroline: I went …") is said by its speaker: "I" is Caroline, and a
    statement that does not name her keeps her label.

    An assistant's turn is kept whole: the rules would take its "I" for the owner's ("I'll write
    my answer and you critique it"), and what it says (an answer, advice, code) is the record of
    what it answered, found as it was said, not statements of the owner's world to split. So is a
    message holding code: split into sentences, its code would become statements ("Cargo install
    cross --locked."), and the words around it are about it."""
    speaker, said = speaker_label(message)
    assistant = said_by_the_assistant(message)
    if assistant or holds_code(said):
        atom = _verbatim_atom(message, speaker or subject)
        atom.speaker = speaker or (ASSISTANT if assistant else None)
        atom.standing = not assistant and is_standing(said)
        return Extraction(atoms=[atom], method="rules")
    extraction = extract_by_rules(
        message=said, subject=speaker or subject, conversation=conversation, now=now, max_atoms=max_atoms
    )
    if speaker:
        for atom in extraction.atoms:
            atom.speaker = speaker
            if speaker not in atom.content:
                atom.content = f"{speaker}: {atom.content}"
    return extraction


# "Caroline: …", "Dr. Ana Ruiz: …": one to three capitalised words and a colon open a line of a
# transcript. Labels that name no speaker are not speakers.
_SPEAKER = re.compile(r"^\s*((?:Dr\.|Mr\.|Mrs\.|Ms\.)?\s*[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*){0,2}):\s+(?=\S)")
# fmt: off
_NOT_SPEAKERS = {
    "note", "update", "reminder", "todo", "summary", "re", "fwd", "ps", "q", "a", "question", "answer",
    "user", "assistant", "system", "me", "i", "important", "warning", "error", "info", "fyi", "edit",
    "tip", "example", "result", "status", "subject", "title", "date", "time", "location", "address",
    "goal", "decision", "action", "correction", "correct", "changes", "change"
}
# fmt: on
_SELF_LABELS = {"user", "me", "i"}


def speaker_label(message: str) -> tuple[str | None, str]:
    """(the speaker a line of a transcript names, the line without its label); (None, message)
    for a message without one. "User:" or "Me:" label the owner's own words: no other speaker."""
    match = _SPEAKER.match(message)
    if match is None:
        return None, message
    label = match[1].strip()
    if label.lower() in _SELF_LABELS:
        return None, message[match.end() :]
    if label.lower() in _NOT_SPEAKERS:
        return None, message
    return label, message[match.end() :]


# How much the rules read. Some of their patterns cost more than linear time in a statement's
# length (a run of words each of which begins a match: "and and and …"), so hostile text within the
# message limit (one 32 KiB "sentence", thousands of short ones) is bounded per statement and per
# message. No statement a person writes comes near either bound: a longer one is still stored
# whole, its type and facets read from its first RULES_STATEMENT_CHARS characters.
RULES_STATEMENT_CHARS = 400
RULES_STATEMENTS_PER_ATOM = 4  # statements read per atom a message may have (max_atoms)


def _head(text: str) -> str:
    """The first RULES_STATEMENT_CHARS characters of ``text``, cut at a space when there is one."""
    if len(text) <= RULES_STATEMENT_CHARS:
        return text
    head = text[:RULES_STATEMENT_CHARS]
    return head.rsplit(" ", 1)[0] if " " in head else head


def extract_by_rules(
    *, message: str, subject: str, conversation: Conversation, now: datetime, max_atoms: int
) -> Extraction:
    question = conversation.question
    if question and is_short_answer(message):
        resolved = resolve_short_answer(message, question, subject)
        return Extraction(atoms=[_atom(resolved, resolved, subject, now)], method="rules")
    atoms: list[Atom] = []
    dropped: list[str] = []
    last: tuple[str, str] | None = None  # the last atom's words as said and attributed, a note may join them
    for sentence in split_sentences(message):
        if is_chit_chat(sentence) or is_question(sentence):
            dropped.append(sentence)
            last = None
            continue
        if last is not None and _is_value_note(sentence):
            last = (f"{last[0]} {sentence}", f"{last[1]} {attribute_first_person(sentence, subject)}")
            links = atoms[-1].links
            atoms[-1] = _atom(*last, subject, now)
            atoms[-1].links, atoms[-1].standing = links, is_standing(last[0])
            continue
        sentence, follows = strip_consequence_marker(sentence)
        for position, (clause, link) in enumerate(split_clauses(sentence) or [(sentence, None)]):
            if follows and position == 0 and atoms:
                atoms[-1].links.append((len(atoms), "IMPLIES"))
            if link == "BECAUSE" and atoms:
                atoms[-1].links.append((len(atoms), "BECAUSE"))
            attributed = attribute_first_person(clause, subject)
            if not attributed.rstrip(" ,;"):  # punctuation only (",,,"): no statement to keep
                dropped.append(clause)
                continue
            atoms.append(_atom(clause, attributed, subject, now))
            last = (clause, attributed)
            # Read in the owner's own words: "I'd rather have plain bash scripts" says how they like
            # things done; "alice would rather have plain bash scripts" reads as a report of her.
            atoms[-1].standing = is_standing(clause)
            if len(atoms) >= RULES_STATEMENTS_PER_ATOM * max_atoms:
                return Extraction(atoms=_unique(atoms)[:max_atoms], method="rules", dropped=dropped)
    return Extraction(atoms=_unique(atoms)[:max_atoms], method="rules", dropped=dropped)


# A note of a label and a value after a statement ("Paper target is the TextApps workshop. Deadline April
# 10.", "… macro-F1 0.81 at epoch 3. Accuracy 0.88.") gives a value of what that statement named, and alone
# says of what nothing: it is kept with the statement. A note is at most this many words, gives a value
# (memory.ingest.english.changes.holds_value), and opens with a label: not a pronoun or another
# stopword, a contraction ("It's in July."), or a verb's past or -ing form ("Submitted on 3 May.").
_NOTE_WORDS = 4


def _is_value_note(sentence: str) -> bool:
    words = sentence.split()
    if not words or len(words) > _NOTE_WORDS or not holds_value(sentence):
        return False
    label = words[0].lower().strip(".,;:!\"'()")
    return bool(label) and label not in STOPWORDS and "'" not in label and not label.endswith(("ed", "ing"))


def _atom(original: str, attributed: str, subject: str, now: datetime) -> Atom:
    content = anchor_relative_dates(attributed.rstrip(" ,;"), now)
    original, attributed = _head(original), _head(attributed)
    memory_type = classify(original)
    entities = find_entities(original, subject=subject)
    if content and content[-1] not in ".!?":
        content += "."
    return Atom(
        content=content[0].upper() + content[1:]
        if content[0].islower() and not content.startswith(subject)
        else content,
        memory_type=memory_type,
        importance=scores.importance(original, memory_type, len(entities)),
        certainty=scores.certainty(original),
        entities=entities,
        attribute=find_attribute(attributed, subject),
        negated=is_negated(attributed),
        change_cue=change_cue(original),
        change=find_change(original),
        values=read_values(original, subject),
    )


def _verbatim_atom(message: str, subject: str) -> Atom:
    """The message as it is. Its facets are read from an attributed copy, so a verbatim
    "I moved to Lisbon" still supersedes a stored "I live in Osaka"."""
    text = message.strip()
    short = len(text) <= 300
    memory_type = classify(text) if short else "raw"
    attributed = attribute_first_person(text, subject) if short else ""
    return Atom(
        content=text,
        memory_type=memory_type,
        importance=scores.importance(text, memory_type, 0),
        certainty=scores.certainty(text),
        entities=find_entities(text, subject=subject)[:20],
        attribute=find_attribute(attributed, subject) if short else None,
        negated=is_negated(attributed) if short else False,
        change_cue=change_cue(text) if short else None,
        change=find_change(text) if short else None,
        values=read_values(text, subject),  # a long turn's too: its values are said early
    )


def _unique(atoms: list[Atom]) -> list[Atom]:
    """The same statement twice in one message is one atom."""
    seen: set[str] = set()
    kept = []
    for atom in atoms:
        key = atom.content.lower().rstrip(".")
        if key not in seen:
            seen.add(key)
            kept.append(atom)
    return kept


# --- the LLM path ----------------------------------------------------------------------------


class LLMEntity(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    type: str = Field(default="name", max_length=32)


class LLMAttribute(BaseModel):
    subject: str = Field(max_length=200)
    name: str = Field(max_length=100)
    value: str = Field(max_length=300)
    single_valued: bool = True


class LLMAtom(BaseModel):
    content: str = Field(min_length=1, max_length=4000)
    type: AtomType = "fact"
    importance: float = Field(default=0.5, ge=0, le=1)
    certainty: int = Field(default=80, ge=0, le=100)
    entities: list[LLMEntity] = Field(default_factory=list, max_length=30)
    negated: bool = False
    attribute: LLMAttribute | None = None
    because_of: int | None = Field(default=None, description="index of the atom that is the reason for this one")
    implies: int | None = Field(default=None, description="index of the atom that follows from this one")


class LLMExtractionReply(BaseModel):
    atoms: list[LLMAtom] = Field(default_factory=list, max_length=50)
    relations: list[tuple[str, str, str]] = Field(default_factory=list, max_length=50)


_SYSTEM = """You extract long-term memories from one message of a conversation.
Return atomic, self-contained statements worth remembering later, at most {max_atoms}.
- Write each in the third person with "{subject}" as the subject of first-person statements
  ("I moved to Berlin" -> "{subject} moved to Berlin").
- Resolve pronouns and short answers with the previous assistant turn and the recent turns
  ("When are you going?" + "next April" -> a full sentence naming what and when).
- Anchor relative dates to today's date ({today}) in parentheses ("next April (April 2027)").
- Skip greetings, thanks, filler and questions. Keep exact identifiers, paths and numbers verbatim.
- type is one of fact, preference, goal, decision, skill, opinion, event, procedure, observation, conclusion,
  health (allergies, intolerances, conditions, diagnoses, medication and doses: "I'm allergic to peanuts").
- attribute: for single-valued properties (where someone lives, employer, age, "favourite X"),
  give subject, name and value so a later change can replace the old value.
- negated: true when the statement denies something.
- because_of / implies: indexes of other atoms in your list this one is caused by / leads to.
- relations: [subject, predicate, object] triples between named entities."""


def _extract_with_llm(
    message: str,
    subject: str,
    conversation: Conversation,
    now: datetime,
    max_atoms: int,
    llm: LLM,
    budget: CallBudget,
    run_id,
) -> Extraction:
    prompt = json.dumps(
        {
            "today": now.date().isoformat(),
            "subject": subject,
            "previous_assistant_turn": conversation.previous_assistant,
            "recent_turns": conversation.turns[-6:],
            "message": message,
        },
        ensure_ascii=False,
    )
    reply = llm.complete_json(
        purpose="extract",
        system=_SYSTEM.format(max_atoms=max_atoms, subject=subject, today=now.date().isoformat()),
        prompt=prompt,
        schema=LLMExtractionReply,
        run_id=run_id,
        budget=budget,
    )
    atoms = [_from_llm(item, subject) for item in reply.atoms[:max_atoms]]
    for index, item in enumerate(reply.atoms[:max_atoms]):
        if item.because_of is not None and 0 <= item.because_of < len(atoms) and item.because_of != index:
            atoms[index].links.append((item.because_of, "BECAUSE"))
        if item.implies is not None and 0 <= item.implies < len(atoms) and item.implies != index:
            atoms[index].links.append((item.implies, "IMPLIES"))
    return Extraction(atoms=_unique(atoms), method="llm", relations=list(reply.relations))


def _from_llm(item: LLMAtom, subject: str) -> Atom:
    """The LLM's atom, with anything it left out read by the rules."""
    attribute = (
        Attribute(
            item.attribute.subject.lower(),
            item.attribute.name.lower(),
            item.attribute.value.lower(),
            item.attribute.single_valued,
        )
        if item.attribute
        else find_attribute(item.content, subject)
    )
    entities = [EntityRef(e.name, e.type.lower()) for e in item.entities] or find_entities(
        item.content, subject=subject
    )
    return Atom(
        content=item.content.strip(),
        memory_type=item.type,
        importance=item.importance,
        certainty=item.certainty,
        entities=entities,
        attribute=attribute,
        negated=item.negated or is_negated(item.content),
        change_cue=change_cue(item.content),
        change=find_change(item.content),
        values=read_values(item.content, subject),
    )

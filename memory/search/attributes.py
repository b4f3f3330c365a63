"""Attribute questions: "Where does Zoe live now?", "What's my job?", "Who is Ana married to?"
ask for one person's value of a single-valued attribute. The memory holding that person's
current value answers them (the conductor seeds it and ranks it first, ``attribute_match``),
whatever else shares the question's words or meaning: the sister's city, the old address.

A question is read as the statement it asks to complete ("Zoe lives in something"), by the
extractor's own rules (``memory.ingest.english.attributes``): a question knows exactly the
attributes and holders a memory's facets can hold, and no second vocabulary of them exists.
The holder is the owner (by their user_id, by a name a memory of theirs gives them, or as "I",
"my", "the user"), someone named ("Ana"), or a relative of either ("Zoe's sister"), who is
also anyone a memory names so ("my sister Ana lives in Porto", "my sister is Ana").

Only a personal search asks: "I" and "my sister" are the owner's.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from helixsite.db.replicas import reader
from memory.ingest.english.attributes import attribute_kind, find_attribute
from memory.ingest.english.person import attribute_first_person
from memory.search.scope import Scope, Window

# The value a question asks for, as its statement says it.
GAP = "something"
# How many of the owner's attribute memories a question reads, newest first: far more than a
# person states about themselves and the people around them.
HELD_MAX = 2000
_ASKED = re.compile(r"\b(what|where|who|which)['’]s\b", re.IGNORECASE)
# Words after the question that say when or why, not what: "Where does Zoe live now?"
_NOT_ASKED = re.compile(
    r"(?:\s+(?:now|currently|nowadays|today|still|these days|at the moment|at present|right now"
    r"|for a living|for work|for a job))+$",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"^(?P<wh>where|what|which|who|whom)(?P<noun>(?:\s+[a-z]+){0,2}?)\s+(?P<verb>does|do|is|are|am)\s+(?P<rest>\S.*)$",
    re.IGNORECASE,
)
# "What city is Zoe in?" asks where, as "Where is Zoe?" does.
_PLACES = frozenset({"city", "town", "country", "place", "village", "area", "neighbourhood", "neighborhood"})
_PREPOSITION_LAST = re.compile(r"\s(?:in|at|for|to|as|with|by)$", re.IGNORECASE)
_THE_USER = re.compile(r"\bthe\s+user(?=['’]s\b|\b)", re.IGNORECASE)
_POSSESSOR = re.compile(r"^([A-Z][\w\-]*)['’]s\s+(?=[a-z])")
# A question for one person's one value names one holder: "Who is Tim and John's favourite
# player?" asks for two people's, "What is one of Joanna's favourite movies?" for one of many.
_NOT_ONE = re.compile(r"(?:^|\s)(?:and|or|one\s+of|some\s+of|any\s+of)\s", re.IGNORECASE)
# An attribute's name never ends in a preposition: "What is Nate's favourite book series about?"
# asks about the value ("Dune" is about …), not for it.
_OF_THE_VALUE = frozenset({"about", "of", "from", "on", "like", "into", "over", "under", "against"})
# "What does X do?" asks for X's job when X is a person's name or a relative, a few words.
_DOER_WORDS = 3


@dataclass(frozen=True)
class AttributeAsked:
    holder: str  # lowercased: the owner's subject, a name, or "<person>'s <relation>"
    name: str  # the attribute (attribute_kind)


def attribute_asked(question: str, owner: str, names: frozenset[str] = frozenset()) -> AttributeAsked | None:
    """Whose single-valued attribute ``question`` asks for, asked in ``owner``'s memories;
    ``names``: the names the owner goes by (lowercased). None for any other question."""
    for statement in _statements(question):
        said, subject = _said_of(statement, owner, names)
        found = find_attribute(said, subject)
        # The rules fall back on the owner when no one is named ("his sister lives in …"):
        # the holder must be said, and the question's gap must be the value.
        if (
            found
            and found.single_valued
            and found.value == GAP
            and _names(said, found.subject)
            and found.name.rsplit(" ", 1)[-1] not in _OF_THE_VALUE
        ):
            return AttributeAsked(holder=found.subject.lower(), name=attribute_kind(found.name))
    return None


def _statements(question: str) -> list[str]:
    """The statements ``question`` may ask to complete, most likely first, the value as GAP."""
    text = _NOT_ASKED.sub("", _ASKED.sub(r"\1 is", question.strip()).rstrip("?!. "))
    match = _QUESTION.match(text)
    if match is None:
        return []
    wh, verb, rest = match["wh"].lower(), match["verb"].lower(), match["rest"]
    where = wh == "where" or match["noun"].strip().lower() in _PLACES
    if _NOT_ONE.search(rest) or (verb == "are" and not where):
        return []  # "What are Zoe's hobbies?" asks for several values, "Where are her parents?" one each
    gap = f" {GAP}"
    if verb == "am":
        rest = re.sub(r"^I\b", "I am", rest)
    if verb in ("does", "do"):
        if wh == "what" and re.search(r"\sdo$", rest):  # "What does Zoe do (for a living)?"
            # not "What does Jon tell Gina he won't do?"
            return [rest[:-3] + " work as" + gap] if len(rest.split()) <= _DOER_WORDS + 1 else []
        if _PREPOSITION_LAST.search(rest):  # "Who does Zoe work for?"
            return [rest + gap]
        return [rest + " in" + gap, rest + " at" + gap] if where else [rest + gap]
    if _PREPOSITION_LAST.search(rest):  # "Who is Zoe married to?", "What city is Zoe in?"
        lives = [rest[:-3] + " lives in" + gap] if where and rest.lower().endswith(" in") else []
        return [rest + gap, *lives]
    if where:  # "Where is Zoe based?", "Where is Zoe?"
        return [rest + " in" + gap, rest + " at" + gap, rest + " lives in" + gap]
    return [rest + " is" + gap, rest + gap]  # "What is Zoe's job?", "Who is Zoe dating?"


def _said_of(statement: str, owner: str, names: frozenset[str]) -> tuple[str, str]:
    """The statement as the rules read one of the owner's memories (the owner, by any of their
    names, as the subject), and whose relatives it names: "Ana's husband" is Ana's."""
    said = _THE_USER.sub(owner, statement)
    for name in names:
        said = re.sub(rf"\b{re.escape(name)}\b", owner, said, flags=re.IGNORECASE)
    said = re.sub(rf"\b{re.escape(owner)}\b", owner, said, flags=re.IGNORECASE)
    said = attribute_first_person(said, owner)
    possessor = _POSSESSOR.match(said)
    if possessor is None or possessor[1] == owner:
        return said, owner
    other = possessor[1].lower()
    return other + said[len(possessor[1]) :], other


def _names(statement: str, holder: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(holder)}(?!\w)", statement, re.IGNORECASE) is not None


@dataclass(frozen=True)
class _Held:
    """A live memory of the owner's whose facets hold a single-valued attribute."""

    id: uuid.UUID
    content: str
    subject: str  # lowercased
    name: str  # attribute_kind
    value: str
    speaker: str | None
    current: bool


def attribute_holding(scope: Scope, query: str, window: Window) -> uuid.UUID | None:
    """The memory in ``scope`` holding the current value of the attribute ``query`` asks for
    (the newest of the holder's current, undenied, unretracted ones), if it asks for one."""
    owner = scope.user_id
    asked = attribute_asked(query, owner) if owner else None
    if owner is None or asked is None:
        return None
    held = _attributes_held(scope, window)
    names = frozenset(
        name
        for h in held
        if h.current and h.subject == owner.lower() and h.name == "name"
        for name in (h.value, h.value.split()[0])
    )
    if names:
        asked = attribute_asked(query, owner, names)
        if asked is None:
            return None
    holders = _holders(asked.holder, owner.lower(), names, held)
    # ``held`` is newest first: the first that matches holds the current value.
    newest = next((h for h in held if h.current and h.name == asked.name and h.subject in holders), None)
    return newest.id if newest else None


def _holders(holder: str, owner: str, names: frozenset[str], held: list[_Held]) -> set[str]:
    """The subjects a memory's facets may give the person ``holder`` names: the owner by any of
    their names; a relative as such ("zoe's sister"), by the name a memory gives them ("my sister
    is Ana"), or by the name a memory calls them by ("my sister Ana lives in Porto", even once
    Ana has moved since)."""
    if holder == owner or holder in names:
        return {owner, *names}
    possessor, _, relation = holder.partition("'s ")
    if not relation:
        return {holder}
    of = owner if possessor in names else possessor
    given = {h.value for h in held if h.current and h.subject == of and h.name == attribute_kind(relation)}
    called = {h.subject for h in held if _calls(h, of, relation, owner)}
    return {f"{of}'s {relation}", *given, *called}


def _calls(held: _Held, possessor: str, relation: str, owner: str) -> bool:
    """Whether the memory calls its holder ``possessor``'s ``relation``: "my sister Ana lives in
    Porto" holds Ana's residence, and Ana is the owner's sister."""
    attributed = attribute_first_person(held.content, held.speaker or owner).lower()
    pattern = rf"\b{re.escape(possessor)}['’]s\s+{re.escape(relation)}\s+{re.escape(held.subject)}\b"
    return re.search(pattern, attributed) is not None


def _attributes_held(scope: Scope, window: Window) -> list[_Held]:
    """The live memories in ``scope`` whose facets hold a single-valued attribute, newest first;
    a superseded one is kept (it still names a relative), a denied or retracted one is not."""
    where, params = scope.sql(window)
    retracting, retracting_params = scope.sql(alias="r")
    with reader().cursor() as cursor:
        cursor.execute(
            f"""SELECT m.id, m.content, m.facets -> 'attribute' ->> 0, m.facets -> 'attribute' ->> 1,
                       m.facets -> 'attribute' ->> 2, m.facets ->> 'speaker', m.valid_to IS NULL
                FROM memory_memory m
                WHERE {where} AND jsonb_typeof(m.facets -> 'attribute') = 'array'
                  AND (m.facets -> 'attribute' ->> 3)::boolean
                  AND NOT coalesce((m.facets ->> 'negated')::boolean, false)
                  AND NOT EXISTS (
                      SELECT 1 FROM memory_edge e JOIN memory_memory r ON r.id = e.source_id
                      WHERE e.target_id = m.id AND e.edge_type = 'CONTRADICTS' AND e.expired_at IS NULL
                        AND r.facets -> 'change' ->> 0 = 'retracts' AND {retracting})
                ORDER BY m.valid_from DESC, m.created_at DESC LIMIT %(held_max)s""",
            {**retracting_params, **params, "held_max": HELD_MAX},
        )
        rows = cursor.fetchall()
    return [_held(row) for row in rows]


def _held(row: tuple) -> _Held:
    memory_id, content, subject, name, value, speaker, current = row
    return _Held(memory_id, content, str(subject).lower(), attribute_kind(str(name)), str(value), speaker, current)

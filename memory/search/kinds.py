"""Questions that ask for a kind of thing: "What instruments does Tim play?", "Which martial arts
has John done?", "What pets does Nate have?". The memories that answer them name an instance
("I'm learning the violin", "I'm doing kickboxing", "this is Max, our new dog") and rarely the
kind's own word, so neither the words nor, in a long turn, the meaning of the question reach them.

The lexicon (``memory/ingest/english/lists/kinds.txt``: a kind, its other names, its common
instances) says which words are instances of which kind. A question's kind is the head of the
noun phrase its "what" or "which" asks about ("what european cities", "which kinds of music").
A memory of the searcher's scope that names an instance of it, and not the kind's word itself,
counts in BM25 as holding that word once (memory.search.bm25), and joins the seeds: one statement
more, for these questions only.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings

from helixsite.db.replicas import reader
from memory.ingest.english.sentences import lower_words
from memory.ingest.english.wordlists import word_list
from memory.search.params import SearchRequest
from memory.search.scope import Scope
from memory.search.seeds import gathers

_ASKING = frozenset({"what", "which"})
# "What kind of music…", "Which types of dogs…": the kind is what comes after them.
_OF_A_KIND = frozenset({"kind", "kinds", "type", "types", "sort", "sorts", "of"})
# Where the noun phrase a "what" asks about ends: the verb of the question, or what follows it.
_VERBS = "is are was were do does did has have had can could would will should may might must be been being am"
_LINKS = "to for in on at with by from about as that than of i you he she we they it"
_PHRASE_ENDS = frozenset(f"{_VERBS} {_LINKS}".split(" "))
_BE = frozenset({"is", "are", "was", "were"})
# "What are some of Tim's hobbies?": what stands before the phrase's own words.
_DETERMINERS = frozenset(
    {
        "the",
        "a",
        "an",
        "some",
        "any",
        "all",
        "both",
        "these",
        "those",
        "my",
        "your",
        "his",
        "her",
        "its",
        "our",
        "their",
    }
)
_LONGEST = 3  # words in the longest kind name
_PHRASE_WORDS = 4  # the most words a kind's phrase is read for


@dataclass(frozen=True)
class Kind:
    name: str  # as the lexicon names it ("martial art")
    instances: tuple[str, ...]


@cache
def lexicon() -> dict[str, Kind]:
    """Every name of every kind (singular and plural) → the kind."""
    by_name: dict[str, Kind] = {}
    for line in word_list("kinds"):
        names, _, listed = line.partition(":")
        instances = tuple(dict.fromkeys(i.strip() for i in listed.split(",") if i.strip()))
        kind = Kind(names.split("|")[0].strip(), instances)
        for name in (n.strip() for n in names.split("|")):
            for form in (name, plural(name)):
                by_name.setdefault(form, kind)
    return by_name


def plural(name: str) -> str:
    """The plural of a kind's name, by the regular rules, on its last word."""
    *rest, last = name.split()
    if last.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return " ".join([*rest, last])


def asked_kind(question: str) -> Kind | None:
    """The kind ``question`` asks for, if it asks "what" or "which" of a kind the lexicon knows:
    the noun phrase after the question word ("what european cities", "which kinds of music", "what
    are Melanie's hobbies"), whose head (its last words) names the kind: "what music events" asks
    for events, not for music."""
    words = lower_words(question[: settings.HELIX_SEARCH_KIND_QUESTION_CHARS])
    start = next((i for i, word in enumerate(words) if word in _ASKING), None)
    if start is None:
        return None
    rest = words[start + 1 :]
    if rest and rest[0] in _BE:
        rest = rest[1:]
    while rest and (rest[0] in _DETERMINERS or rest[0] in _OF_A_KIND or rest[0].endswith("'s")):
        rest = rest[1:]
    phrase: list[str] = []
    for word in rest[:_PHRASE_WORDS]:
        if word in _PHRASE_ENDS or word.endswith("'s"):
            break
        phrase.append(word)
    known = lexicon()
    for size in range(min(_LONGEST, len(phrase)), 0, -1):
        kind = known.get(" ".join(phrase[-size:]))
        if kind is not None:
            return kind
    return None


def instance_query(kind: Kind) -> str:
    """The kind's instances as one ``to_tsquery`` text, the words of an instance in a row. An
    instance the index would not keep as its words ("c++", "r&b", "valentine's day") is left out."""
    return " | ".join(alternative for alternative, _ in _alternatives(kind))


@dataclass(frozen=True)
class Holding:
    """How a memory is matched to a kind's instances, cheaply first. The whole query is a few
    hundred alternatives, every one looked up in every row of an owner (7 ms a question for 400
    rows); a row holding none of their words cannot match, and a word of a one-word instance is a
    match on its own. So a row's own words are looked up in the words of the one-word instances,
    then in the phrases' anchors, and only a row holding one of these is matched against the
    phrases themselves: which rows match is the same as through the whole query. A phrase's anchor
    is its longest word (as the index keeps it), which a row must hold to match it: "guitar" of
    "play guitar", "stitch" of "cross stitch"; every word of every phrase let through a row in
    two of an owner's, the common ones ("play", "make", "go", "class") among them. For an owner's
    rows gathered; through the full-text index, the whole query finds them.

    As the index parsed them (lexemes, ``tsquery`` text): parsing and stemming a few hundred
    instances took 0.6 of a statement's 0.8 ms of planning, on every question for a kind."""

    instances: str  # the whole query, ``to_tsquery``'s text
    words: list[str]  # the lexemes of the one-word instances
    anchors: list[str]  # each phrase's longest lexeme
    ranking: str  # the whole query's lexemes, each once, in the order ``ranking_query`` gives
    phrases: str  # the phrases' query, ``to_tsquery``'s text; "" when the kind has none


@cache  # once a process: the lexicon and the parser do not change
def holding(kind: Kind) -> Holding:
    """``kind``'s instances as the index parses them (two statements, the first time it is asked)."""
    alternatives = _alternatives(kind)
    single = [words[0] for _, words in alternatives if len(words) == 1]
    phrases = [(alternative, words) for alternative, words in alternatives if len(words) > 1]
    with reader().cursor() as cursor:
        cursor.execute(
            """SELECT to_tsquery('english', %(instances)s)::text,
                      tsvector_to_array(to_tsvector('english', %(words)s)),
                      CASE WHEN %(phrases)s = '' THEN '' ELSE to_tsquery('english', %(phrases)s)::text END""",
            {
                "instances": instance_query(kind),
                "words": " ".join(single),
                "phrases": " | ".join(alternative for alternative, _ in phrases),
            },
        )
        instances, words, phrases_query = cursor.fetchone()
        cursor.execute(
            "SELECT tsvector_to_array(to_tsvector('english', p)) FROM unnest(%(phrases)s::text[]) AS t(p)",
            {"phrases": [" ".join(words) for _, words in phrases]},
        )
        per_phrase = [lexemes for (lexemes,) in cursor.fetchall() if lexemes]
    anchors = {max(lexemes, key=lambda lexeme: (len(lexeme), lexeme)) for lexemes in per_phrase}
    return Holding(instances, words, sorted(anchors), ranking_query(instances), phrases_query)


def ranking_query(instances: str) -> str:
    """The lexemes of the query ``instances`` (``tsquery`` text), each once, as one query that
    ``ts_rank`` ranks a row by exactly as by ``instances``: it reads a query for a rank as the set of
    its lexemes, each scored where the row holds it, their sum divided by how many there are, so
    operators and repeats change nothing. It sorts that set again for every row it ranks: a few
    hundred lexemes given in the order that sort finds them already in (descending, as they are read
    back from a chain of "|") took 3.1 ms for an owner's 418 rows, against 6.8 for the whole query."""
    lexemes = {match.replace("''", "'") for match in _LEXEME.findall(instances)}
    ordered = sorted(lexemes, key=lambda lexeme: lexeme.encode(), reverse=True)
    return " | ".join("'" + lexeme.replace("'", "''") + "'" for lexeme in ordered)


_LEXEME = re.compile(r"'((?:[^']|'')*)'")


@cache  # read at every question for a kind
def _alternatives(kind: Kind) -> tuple[tuple[str, list[str]], ...]:
    """Each instance the index keeps as its words: its ``to_tsquery`` text, and its words."""
    found = []
    for instance in kind.instances:
        words = instance.replace("-", " ").split()
        if not words or not all(word.isascii() and word.isalnum() and len(word) > 1 for word in words):
            continue
        found.append(("(" + " <-> ".join(words) + ")" if len(words) > 1 else words[0], words))
    return tuple(found)


def kind_holders(scope: Scope, request: SearchRequest, kind: Kind) -> tuple[list[uuid.UUID], list[str]]:
    """The memories in the seeds' filter naming an instance of ``kind`` without its own word (best
    first, at most ``HELIX_SEARCH_BM25_K``), and the kind word's lexemes as the index stores them.

    Not for one owner (or a small category) found to hold many rows: the holders count as BM25
    would count the kind's word if they held it, every one of them, and through the index such an
    owner's thousands of holders (a hundred tool names) cost up to a second to read and rank, while
    a hundred of them taken as they come would each be credited a word thousands hold as if few
    did. Their question for a kind is matched by its words and meaning. A search over every owner
    the caller sees reads at most the pool BM25 ranks through the index."""
    gathered = gathers(scope, "memory_memory") is not None
    if not instance_query(kind) or (scope.narrow and not gathered):
        return [], []
    where, params = scope.sql(request.window)
    how = holding(kind)
    unlike = "NOT m.search_vector @@ plainto_tsquery('english', %(kind)s)"
    if gathered:  # few rows first, as BM25 gathers them (memory.search.bm25), each read word by word
        holds = f"{holds_an_instance(how)} AND {unlike}"
        owned = f"WITH owned AS MATERIALIZED (SELECT m.id, m.search_vector FROM memory_memory m WHERE {where})"
        source = f"owned m WHERE {holds}"
    else:  # through the full-text index
        holds = f"m.search_vector @@ %(instances)s::tsquery AND {unlike}"
        owned = ""
        source = f"(SELECT m.id, m.search_vector FROM memory_memory m WHERE {where} AND {holds} LIMIT %(pool)s) m"
    statement = f"""{owned}
        SELECT m.id, tsvector_to_array(to_tsvector('english', %(kind)s))
        FROM {source}
        ORDER BY ts_rank(m.search_vector, %(ranking)s::tsquery) DESC, m.id
        LIMIT %(k)s"""
    k = settings.HELIX_SEARCH_BM25_K
    with reader().cursor() as cursor:
        cursor.execute(statement, {**params, **holding_values(how), "kind": kind.name, "k": k, "pool": k * 4})
        rows = cursor.fetchall()
    return [row[0] for row in rows], (list(rows[0][1]) if rows else [])


def holds_an_instance(how: Holding) -> str:
    """SQL: row ``m`` (its ``search_vector``) names an instance, read as ``Holding`` says; its
    parameters are ``holding_values(how)``."""
    words = _holds_a_word("%(words)s")
    if not how.phrases:
        return f"({words})"
    return f"({words} OR ({_holds_a_word('%(anchors)s')} AND m.search_vector @@ %(phrases)s::tsquery))"


def holding_values(how: Holding) -> dict[str, Any]:
    """The parameters of ``holds_an_instance(how)``, ``%(instances)s`` (the whole query) and
    ``%(ranking)s`` (what the holders are ranked by)."""
    return {
        "instances": how.instances,
        "words": how.words,
        "anchors": how.anchors,
        "phrases": how.phrases,
        "ranking": how.ranking,
    }


def _holds_a_word(lexemes: str) -> str:
    """SQL: row ``m`` holds one of ``lexemes`` (a ``text[]`` parameter), each of its own words looked
    up among them (in a hash table PostgreSQL builds once a statement)."""
    return (
        "EXISTS (SELECT FROM unnest(tsvector_to_array(m.search_vector)) AS w(lexeme)"
        f" WHERE w.lexeme = ANY({lexemes}::text[]))"
    )

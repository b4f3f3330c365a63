"""Questions that ask for a kind of thing: "What instruments does Tim play?", "Which martial arts
has John done?", "What pets does Nate have?". The memories that answer them name an instance
("I'm learning the violin", "I'm doing kickboxing", "this is Max, our new dog") and rarely the
kind's own word, so neither the words nor, in a long turn, the meaning of the question reach them.

The lexicon (``memory/ingest/english/lists/kinds.txt``: a kind, its other names, its common
instances) says which words are instances of which kind. A question's kind is the head of the
noun phrase its "what" or "which" asks about ("what european cities", "which kinds of music").
A memory of the searcher's scope that names an instance of it, and not the kind's word itself,
counts in BM25 as holding that word once (memory.search.bm25), and joins the seeds: one statement
more, for these questions only. Which memories name an instance of which kind is recorded as they
are written (``memory_kindholder``, kept by triggers: memory/migrations/0024_kind_holders.py), and
read again for every memory when the lexicon changes (``kind_lexicon_sync``, after every migrate).
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any

from django.conf import settings
from django.db import connections, transaction

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


def lexicon_rows(connection: Any) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str, str | None]]]:
    """The lexicon as the full-text index parses it, the rows ``memory_kind`` and ``memory_kindword``
    hold (memory/migrations/0024_kind_holders.py): per kind, its name, its own word's query, its
    instances' query and the query it ranks by (``ranking_query``), as ``tsquery`` text; per lexeme
    of a one-word instance, the lexeme and its kind; per phrase, its longest lexeme (a row must hold
    it to hold the phrase), its kind and its query. Two statements on ``connection``."""
    kinds = _kinds()
    phrases = [
        (kind.name, alt, " ".join(words)) for kind in kinds for alt, words in _alternatives(kind) if len(words) > 1
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT k, plainto_tsquery('english', k)::text, to_tsquery('english', q)::text,
                      tsvector_to_array(to_tsvector('english', w))
               FROM unnest(%(kinds)s::text[], %(queries)s::text[], %(words)s::text[]) WITH ORDINALITY AS t(k, q, w, n)
               ORDER BY n""",
            {
                "kinds": [kind.name for kind in kinds],
                "queries": [instance_query(kind) for kind in kinds],
                "words": [" ".join(w[0] for _, w in _alternatives(kind) if len(w) == 1) for kind in kinds],
            },
        )
        parsed = cursor.fetchall()
        cursor.execute(
            """SELECT k, to_tsquery('english', q)::text, tsvector_to_array(to_tsvector('english', w))
               FROM unnest(%(kinds)s::text[], %(queries)s::text[], %(words)s::text[]) WITH ORDINALITY AS t(k, q, w, n)
               ORDER BY n""",
            dict(zip(("kinds", "queries", "words"), _columns(phrases), strict=True)),
        )
        per_phrase = cursor.fetchall()
    kind_rows = [(name, word, instances, ranking_query(instances)) for name, word, instances, _ in parsed]
    word_rows: list[tuple[str, str, str | None]] = [
        (lexeme, name, None) for name, _, _, lexemes in parsed for lexeme in dict.fromkeys(lexemes)
    ]
    word_rows += [
        (max(lexemes, key=lambda lexeme: (len(lexeme), lexeme)), name, query)
        for name, query, lexemes in per_phrase
        if lexemes
    ]
    return kind_rows, word_rows


def kind_lexicon_sync(using: str = "default", **_: Any) -> bool:
    """Fill the lexicon's rows from the lexicon file when they were made from another (a digest), and
    read every memory again for the kinds it names: after every migrate (memory.apps), once after an
    upgrade whose lexicon changed. Writes to the memories wait meanwhile (a memory written beside it
    would be read by the lexicon before); searches go on with the holders before until it commits.
    True when it changed anything."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regprocedure('memory_kinds_held(tsvector)') IS NOT NULL")
        if not cursor.fetchone()[0]:  # migrated back before the holders were recorded
            return False
    digest = _lexicon_digest(connection)
    if _digest(connection) == digest:
        return False
    kind_rows, word_rows = lexicon_rows(connection)
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute("LOCK TABLE memory_memory IN SHARE MODE")
        cursor.execute("LOCK TABLE memory_kind, memory_kindword, memory_kindlexicon IN EXCLUSIVE MODE")
        if _digest(connection) == digest:  # another process's migrate did it meanwhile
            return False
        cursor.execute("DELETE FROM memory_kind; DELETE FROM memory_kindword; DELETE FROM memory_kindlexicon")
        cursor.execute(
            """INSERT INTO memory_kind (kind, word, instances, ranking)
               SELECT k, w::tsquery, i, r
               FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[]) AS t(k, w, i, r)""",
            _columns(kind_rows),
        )
        cursor.execute(
            """INSERT INTO memory_kindword (lexeme, kind, phrase)
               SELECT l, k, p::tsquery FROM unnest(%s::text[], %s::text[], %s::text[]) AS t(l, k, p)""",
            _columns(word_rows),
        )
        cursor.execute("DELETE FROM memory_kindholder")
        cursor.execute(
            """INSERT INTO memory_kindholder (memory_id, user_id, kind, rank)
               SELECT m.id, m.user_id, k.kind, k.rank FROM memory_memory m, memory_kinds_held(m.search_vector) k"""
        )
        cursor.execute("INSERT INTO memory_kindlexicon (digest) VALUES (%s)", [digest])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_kindword, memory_kindholder")
    return True


def _columns(rows: list) -> list[list]:
    """``rows`` as their columns, each a list: the arrays one ``unnest`` reads them from."""
    return [list(column) for column in zip(*rows, strict=True)]


# How ``lexicon_rows`` makes the rows: a change to it changes this, and the rows are made again.
_ROWS_FORM = 1


def _lexicon_digest(connection: Any) -> str:
    """What the lexicon's rows are made from: every kind's name and instances as the index is asked
    for them, the server's version (its parser and stemmer make the lexemes) and the rows' form.
    Read without parsing anything: a flush of the test database runs the sync too."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')")
        (server,) = cursor.fetchone()
    return hashlib.sha256(f"{_ROWS_FORM} {server} {_lexicon_read()}".encode()).hexdigest()


@cache  # the lexicon does not change while a process runs
def _lexicon_read() -> str:
    return hashlib.sha256(repr([(kind.name, _alternatives(kind)) for kind in _kinds()]).encode()).hexdigest()


def _kinds() -> list[Kind]:
    """Every kind with an instance the index keeps, each once, by name."""
    kinds = {kind.name: kind for kind in lexicon().values() if _alternatives(kind)}
    return sorted(kinds.values(), key=attrgetter("name"))


def _digest(connection: Any) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT digest FROM memory_kindlexicon")
        found = cursor.fetchone()
    return found[0] if found else None


def ranking_query(instances: str) -> str:
    """The lexemes of the query ``instances`` (``tsquery`` text), each once, as one query that
    ``ts_rank`` ranks a row by exactly as by ``instances``: it reads a query for a rank as the set of
    its lexemes, each scored where the row holds it, their sum divided by how many there are, so
    operators and repeats change nothing. It sorts that set again for every row it ranks: a few
    hundred lexemes given in the order that sort finds them already in (descending, as they are read
    back from a chain of "|") took 3.1 ms for an owner's 418 rows, against 6.8 for the whole query,
    when holders were ranked at each question; now each memory is ranked once, as it is written."""
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
    Read from what the memories' writes recorded (``memory_kindholder``), not matched here: one
    owner's through the owner's index, a few rows gathered otherwise (a category, a filter) by
    their ids, every owner the caller sees through the full-text index, at most the pool BM25 ranks.

    Not for one owner (or a small category) found to hold many rows: the holders count as BM25
    would count the kind's word if they held it, every one of them, and a hundred of an owner's
    thousands (a hundred tool names) taken as they come would each be credited a word thousands hold
    as if few did. Their question for a kind is matched by its words and meaning."""
    gathered = gathers(scope, "memory_memory") is not None
    if not instance_query(kind) or (scope.narrow and not gathered):
        return [], []
    where, params = scope.sql(request.window)
    lexemes = "tsvector_to_array(to_tsvector('english', %(kind)s))"
    ranked = "ORDER BY h.rank DESC, h.memory_id LIMIT %(k)s"
    if gathered and scope.user_id is not None:  # the owner's holders, each row read once
        statement = f"""SELECT h.memory_id, {lexemes}
            FROM memory_kindholder h JOIN memory_memory m ON m.id = h.memory_id
            WHERE h.user_id = %(owner)s AND h.kind = %(kind)s AND {where} {ranked}"""
    elif gathered:  # few rows first, then their holders
        statement = f"""WITH owned AS MATERIALIZED (SELECT m.id FROM memory_memory m WHERE {where})
            SELECT h.memory_id, {lexemes}
            FROM owned o JOIN memory_kindholder h ON h.memory_id = o.id AND h.kind = %(kind)s {ranked}"""
    else:  # through the full-text index: the pool, then their ranks
        instances = "(SELECT k.instances::tsquery FROM memory_kind k WHERE k.kind = %(kind)s)"
        pool = f"""SELECT m.id FROM memory_memory m WHERE {where} AND m.search_vector @@ {instances}
            AND NOT m.search_vector @@ plainto_tsquery('english', %(kind)s) LIMIT %(pool)s"""
        statement = f"""SELECT h.memory_id, {lexemes} FROM ({pool}) m
            JOIN memory_kindholder h ON h.memory_id = m.id AND h.kind = %(kind)s {ranked}"""
    k = settings.HELIX_SEARCH_BM25_K
    with reader().cursor() as cursor:
        cursor.execute(statement, {**params, "kind": kind.name, "k": k, "pool": k * 4})
        rows = cursor.fetchall()
    return [row[0] for row in rows], (list(rows[0][1]) if rows else [])

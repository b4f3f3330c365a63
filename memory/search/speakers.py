"""The people a question names who speak in the memories it searches.

"What does Melanie do to destress?" asked of a conversation between Melanie and Caroline: the
speaker preference (stage 3) already raises every line Melanie said. Matched again as a word and
as meaning, her name would favour the lines that merely greet her ("Thanks, Melanie!") and the
short ones her label is most of ("Melanie: Cool! What did it look like?"), and push the line that
answers out of the top ten. So a speaker's name the query says is matched by who said a memory,
and the words and the meaning are matched without it. A name that no visible memory's speaker
has ("When did Maria meet Jean?": Jean) stays a word to match.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Hashable

from helixsite.db.replicas import prepared_reader
from memory.search.scope import Scope

# A speaker's label is capitalised ("Caroline: …"), and so is a name said in a question.
_NAME = re.compile(r"\b([A-Z][\w\-]*)(?:['’]s\b)?")
# A speaker's first name, lowercased, without a title, as SQL of the memory aliased ``m``: the
# expression the index memory_speaker_first_name holds (migration 0022), so each word a question
# says is one index probe, whatever the owner holds.
FIRST_NAME = r"split_part(lower(regexp_replace(m.facets ->> 'speaker', '^\s*(dr|mr|mrs|ms)\.\s*', '', 'i')), ' ', 1)"
# Which of a caller's words named a speaker the last time, per caller and scope: so many
# (caller, scope) pairs, so many words each, the least recently used forgotten first.
GUESS_KEYS = 1024
GUESS_WORDS = 256

_named_before: OrderedDict[Hashable, dict[str, bool]] = OrderedDict()
_guess_lock = threading.Lock()


def speakers_named(scope: Scope, query: str, *, prepared: bool = False) -> frozenset[str]:
    """The lowercased first names, among the query's capitalised words, of speakers of memories
    in ``scope`` (the same people the speaker preference raises the lines of). ``prepared``: the
    statement is prepared on the server, for a steady scope of few rows (the best way to a word
    among many rows depends on how many hold it)."""
    words = sorted(_words(query))
    if not words:
        return frozenset()
    where, params = scope.sql()
    with prepared_reader(prepared) as cursor:
        # A word with no lexeme (a stop word: "Will", "May") is never taken for a name.
        cursor.execute(
            f"""SELECT w.word FROM unnest(%(words)s::text[]) AS w(word)
                WHERE numnode(plainto_tsquery('english', w.word)) > 0 AND EXISTS (
                    SELECT 1 FROM memory_memory m
                    WHERE {where} AND m.facets ? 'speaker' AND {FIRST_NAME} = w.word
                )""",
            {**params, "words": words},
        )
        return frozenset(word for (word,) in cursor.fetchall())


def without_speakers(query: str, speakers: frozenset[str]) -> str:
    """The query less the speakers' names it says (with their possessive), or the query itself
    when nothing else would be left to match."""
    if not speakers:
        return query
    rest = _NAME.sub(lambda name: " " if name[1].lower() in speakers else name[0], query)
    rest = re.sub(r"\s+", " ", rest).strip()
    return rest if re.search(r"\w", rest) else query


def speakers_guess(key: Hashable, query: str) -> frozenset[str]:
    """Which of the query's capitalised words named a speaker the last time the same caller asked
    in the same scope (``key``), without asking the database: the search embeds the query less
    those names while it looks up the speakers for real (``speakers_named``), and embeds again
    only if the guess was wrong. A word not seen before is guessed not to be a speaker."""
    with _guess_lock:
        known = _named_before.get(key)
        if known is None:
            return frozenset()
        _named_before.move_to_end(key)
        return frozenset(word for word in _words(query) if known.get(word))


def speakers_learn(key: Hashable, query: str, speakers: frozenset[str]) -> None:
    """Remember which of the query's capitalised words ``speakers_named`` found to be speakers."""
    words = _words(query)
    if not words:
        return
    with _guess_lock:
        known = _named_before.setdefault(key, {})
        _named_before.move_to_end(key)
        for word in words:
            known.pop(word, None)
            known[word] = word in speakers
        while len(known) > GUESS_WORDS:
            del known[next(iter(known))]
        while len(_named_before) > GUESS_KEYS:
            _named_before.popitem(last=False)


def _words(query: str) -> set[str]:
    return {word.lower() for word in _NAME.findall(query)}

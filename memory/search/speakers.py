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
from typing import TYPE_CHECKING

from helixsite.db.replicas import reader

if TYPE_CHECKING:
    from memory.search.seeds import Scope

# A speaker's label is capitalised ("Caroline: …"), and so is a name said in a question.
_NAME = re.compile(r"\b([A-Z][\w\-]*)(?:['’]s\b)?")
# How many memories holding a word are read to find whether it names one of their speakers: in
# a transcript a speaker's label opens every line they say, so the first few memories holding
# the name include theirs, and a common word costs a bounded read, never a scan of everything.
PROBE = 200


def speakers_named(scope: Scope, query: str) -> frozenset[str]:
    """The lowercased first names, among the query's capitalised words, of speakers of memories
    in ``scope`` (the same people the speaker preference raises the lines of)."""
    words = sorted({word.lower() for word in _NAME.findall(query)})
    if not words:
        return frozenset()
    where, params = scope.sql()
    with reader().cursor() as cursor:
        cursor.execute(
            f"""SELECT w.word FROM unnest(%(words)s::text[]) AS w(word)
                CROSS JOIN LATERAL plainto_tsquery('english', w.word) AS q(lexeme)
                WHERE numnode(q.lexeme) > 0 AND EXISTS (
                    SELECT 1 FROM (
                        SELECT m.facets->>'speaker' AS speaker FROM memory_memory m
                        WHERE {where} AND m.search_vector @@ q.lexeme LIMIT %(probe)s
                    ) said
                    WHERE split_part(lower(regexp_replace(said.speaker, '^\\s*(dr|mr|mrs|ms)\\.\\s*', '', 'i')), ' ', 1)
                          = w.word
                )""",
            {**params, "words": words, "probe": PROBE},
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

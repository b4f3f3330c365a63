"""A request for work gets the owner's standing instructions that bear on it.

"Add a job that builds the docs site" shares no word, and little meaning, with "when you give me
YAML, don't use anchors or aliases", yet the job must follow it. A memory marked ``standing`` at
ingestion (memory.ingest.english.instructions: a rule for the assistant's later work, or how the
owner likes things done) is read whatever the request's words: when a personal search asks for
work (its sentence opens with a verb of work, "Draft…", "Add…", "Upgrade…", has a thing done, "Have
the build…", or asks how or whether to do something: "How do I…", "Which … should I get?", "Is there
something that would…", "What's the easiest way…"), the owner's standing memories nearest to it in
meaning take the last ``HELIX_SEARCH_STANDING_SLOTS`` places of the results they did not already
reach, labelled ``standing``, and never more than half of them: what the request found on its own
keeps the first half (asked for four results, a request gets two of its own and two rules; asked
for one, its best match). A question about what happened ("What did Tim play?") asks for no
work and ranks as before. One statement more, for requests only, over the owner's standing rows.
"""

from __future__ import annotations

import re
import uuid

from django.conf import settings

from helixsite.db.replicas import reader
from memory.ingest.english.sentences import lower_words
from memory.ingest.english.wordlists import word_list
from memory.search.params import SearchRequest
from memory.search.scope import Scope
from memory.search.seeds import vector_text

# The verbs a request for work opens with ("Write me a helper…", "Set up Uptime Kuma…").
_WORK = frozenset(word_list("work_verbs"))
_LEAD_INS = frozenset({"please", "now", "ok", "okay", "so", "and", "then", "next", "also", "quick", "quickly", "just"})
# Asked anywhere in the query: how or whether to do something (and any "should").
_ASKING_FOR_WORK = (
    "how do i",
    "how can i",
    "how should i",
    "how do we",
    "how can we",
    "how should we",
    "how would i",
    "can you",
    "could you",
    "would you",
    "help me",
    "i need",
    "worth it",
    "worth pursuing",
    "is it worth",
    "what am i in for",
    "is there something",
    "is there anything",
    "is there a way",
    "easiest way",
    "best way",
    "quickest way",
)
# "Have the tag build also create a release.", "Do a notice like the oven one.": a request when what
# follows names a thing, not a subject ("Have you…?", "Do Jon and Gina…?"), and no question mark ends it.
_CAUSING = frozenset({"have", "do"})
_A_THING = frozenset({"a", "an", "the", "this", "that", "these", "those", "it", "my", "our", "each", "every", "all"})
_QUERY_CHARS = 600
_SENTENCE_BREAKS = re.compile(r"[.!?\n]+")


def is_request(query: str) -> bool:
    """``query`` asks for a piece of work, not for what happened."""
    sentences = [lower_words(part) for part in _SENTENCE_BREAKS.split(query[:_QUERY_CHARS])]
    joined = " ".join(f" {' '.join(words)} " for words in sentences)
    if any(f" {phrase} " in joined for phrase in _ASKING_FOR_WORK) or " should " in joined:
        return True
    asked = query[:_QUERY_CHARS].rstrip().endswith("?")
    for words in sentences:
        start = next((n for n, word in enumerate(words) if word not in _LEAD_INS), None)
        if start is None:
            continue
        if words[start] in _WORK:
            return True
        following = words[start + 1] if start + 1 < len(words) else None
        if words[start] in _CAUSING and following in _A_THING and not asked:
            return True
    return False


def standing_for(scope: Scope, request: SearchRequest, vector) -> dict[uuid.UUID, float]:
    """The owner's standing memories in the seeds' filter nearest to the request in meaning (at most
    ``HELIX_SEARCH_STANDING_SLOTS`` and half the places asked for, one a message), with their cosines;
    none for a search that is no request or not one owner's."""
    slots = min(settings.HELIX_SEARCH_STANDING_SLOTS, request.limit // 2)
    if slots <= 0 or scope.user_id is None or not is_request(request.query):
        return {}
    where, params = scope.sql(request.window)
    whole_where, whole_params = scope.sql(request.window, alias="whole")
    # A message is one place: its statements (extracted, each standing) say one rule or one way the
    # owner likes things done, in several sentences, and four places are for four of them. Where the
    # message is kept whole (a raw source its statements are PART_OF), the place shows it: a rule's
    # statements split what not to do from what to do instead ("hates Makefiles" beside "would rather
    # have plain bash scripts"), and only the first reads as a rule.
    statement = f"""
        WITH standing AS MATERIALIZED (
            SELECT m.id, coalesce(m.run_id, m.id) AS said_in, 1 - (m.embedding <=> %(vec)s::vector) AS cosine
            FROM memory_memory m
            WHERE {where} AND m.facets @> '{{"standing": true}}'::jsonb
        ),
        nearest AS (
            SELECT DISTINCT ON (said_in) id, cosine FROM standing ORDER BY said_in, cosine DESC, id
        ),
        chosen AS (SELECT id, cosine FROM nearest ORDER BY cosine DESC, id LIMIT %(k)s)
        SELECT coalesce((
            SELECT whole.id FROM memory_edge e JOIN memory_memory whole ON whole.id = e.target_id
            WHERE e.source_id = chosen.id AND e.edge_type = 'PART_OF' AND e.expired_at IS NULL AND {whole_where}
            LIMIT 1
        ), chosen.id), chosen.cosine
        FROM chosen ORDER BY chosen.cosine DESC, chosen.id"""
    with reader().cursor() as cursor:
        cursor.execute(statement, {**whole_params, **params, "vec": vector_text(vector), "k": slots})
        return {memory_id: float(cosine) for memory_id, cosine in cursor.fetchall()}

"""Stage 1: seeds. Vector nearest neighbours (HNSW, iterative scan) and BM25 candidates
(k1 1.5, b 0.75) from the full-text index, both inside the same filter: live memories the
actor can see, of the owner for a personal search, in the event-time window.

BM25's document frequencies, document count and average length are those of the memories the
actor can see (memory.search.corpus keeps them as memories change), so scores reveal nothing
about other workspaces.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from helixsite.db.replicas import reader
from memory.search.corpus import MEMORIES, statistics_of_text
from memory.search.params import SearchRequest, Window


@dataclass(frozen=True)
class Scope:
    """Who is asking and what they may see: the SQL filter every read path uses."""

    readable: list[int] | None  # None: a global admin, who sees every workspace
    user_id: str | None
    concept: str | None = None
    tags: tuple[str, ...] = ()
    category: str | None = None  # a normalized path: memories filed in it or below

    def sql(self, window: Window | None = None, alias: str = "m") -> tuple[str, dict[str, Any]]:
        clauses = [f"{alias}.deleted_at IS NULL", f"({alias}.expires_at IS NULL OR {alias}.expires_at > now())"]
        params: dict[str, Any] = {}
        if self.readable is not None:
            clauses.append(f"{alias}.visible_in && %(readable)s::int[]")
            params["readable"] = self.readable
        if self.user_id is not None:
            clauses.append(f"{alias}.user_id = %(owner)s")
            params["owner"] = self.user_id
        if self.concept:
            clauses.append(
                f"EXISTS (SELECT 1 FROM memory_instanceof i JOIN memory_concept c ON c.id = i.concept_id "
                f"WHERE i.memory_id = {alias}.id AND c.name = %(concept)s)"
            )
            params["concept"] = self.concept
        if self.category:
            clauses.append(
                f"EXISTS (SELECT 1 FROM categories_filing f JOIN categories_category k ON k.id = f.category_id "
                f"WHERE f.memory_id = {alias}.id AND k.lineage @> ARRAY[%(category)s]::varchar[])"
            )
            params["category"] = self.category
        if self.tags:
            clauses.append(f"{alias}.context_tags @> %(tags)s::varchar[]")
            params["tags"] = list(self.tags)
        if window is not None and window.start is not None:
            clauses.append(f"{alias}.valid_from >= %(window_start)s")
            params["window_start"] = window.start
        if window is not None and window.end is not None:
            clauses.append(f"{alias}.valid_from <= %(window_end)s")
            params["window_end"] = window.end
        return " AND ".join(clauses), params


@dataclass
class Seeds:
    cosine: dict[uuid.UUID, float]
    vector_rank: dict[uuid.UUID, int]
    bm25: dict[uuid.UUID, float]
    bm25_rank: dict[uuid.UUID, int]


def vector_seeds(scope: Scope, request: SearchRequest, vector) -> dict[uuid.UUID, float]:
    where, params = scope.sql(request.window)
    return nearest("memory_memory m", where, params, vector, owned=scope.user_id is not None)


def nearest(table: str, where: str, params: dict[str, Any], vector, *, owned: bool) -> dict[uuid.UUID, float]:
    """The ``HELIX_SEARCH_VECTOR_K`` rows of ``table`` ("name alias") matching ``where`` nearest to
    ``vector``, with their cosines. One owner's rows (``owned``) are few against the whole table:
    an exact scan of them is both faster than walking the HNSW graph for enough of theirs, and exact."""
    alias = table.split()[1]
    if owned:
        sql = f"""
            WITH owned AS MATERIALIZED (SELECT {alias}.id, {alias}.embedding FROM {table} WHERE {where})
            SELECT id, 1 - (embedding <=> %(vec)s::vector) FROM owned
            ORDER BY embedding <=> %(vec)s::vector LIMIT %(k)s"""
    else:
        sql = f"""
            SELECT {alias}.id, 1 - ({alias}.embedding <=> %(vec)s::vector) FROM {table}
            WHERE {where} ORDER BY {alias}.embedding <=> %(vec)s::vector LIMIT %(k)s"""
    with reader().cursor() as cursor:
        cursor.execute(sql, {**params, "vec": vector_text(vector), "k": settings.HELIX_SEARCH_VECTOR_K})
        return {memory_id: float(cosine) for memory_id, cosine in cursor.fetchall()}


@dataclass(frozen=True)
class Bm25:
    scores: dict[uuid.UUID, float]
    ceiling: float  # the best score any document could reach for the query
    once: float = 0.0  # the score of a document of average length holding each query term once

    def normalized(self, memory_id: uuid.UUID, method: str) -> float:
        """``query``: the share of the query matched, so one common word earns little;
        ``terms``: the share of every query term said once (or of two words no memory holds,
        when the query's words carry less), so a long question's best matches are not made
        small by words no memory would repeat;
        ``max``: relative to the best candidate, which always earns 1."""
        score = self.scores.get(memory_id, 0.0)
        if method == "max":
            return score / (max(self.scores.values(), default=0.0) or 1.0)
        scale = self.once if method == "terms" else self.ceiling
        return min(score / scale, 1.0) if scale > 0 else 0.0


def _queried(vector: str) -> str:
    """A vector's entries for the query's terms only, cut out in C (deleting what deleting the
    terms leaves) rather than by unnesting every word of every candidate and filtering the rows."""
    return f"ts_delete({vector}, tsvector_to_array(ts_delete({vector}, %(terms)s::text[])))"


def bm25_seeds(scope: Scope, request: SearchRequest) -> Bm25:
    """BM25 over a memory's own words and, at ``HELIX_SEARCH_CONTEXT_WEIGHT``, the words said just
    before it: BM25F, each field's term frequency normalized by that field's own length, then
    weighted, summed and saturated. So a long, unrelated line said before a memory does not dilute
    the memory's own words, and a word found only in a long context counts for little."""
    terms, counted = statistics_of_text(MEMORIES, scope.readable, matched_text(request.matched))
    if not terms:
        return Bm25({}, 1.0)
    alpha = settings.HELIX_SEARCH_CONTEXT_WEIGHT
    n, own_length, context_length, frequencies = (
        counted.documents,
        counted.own_length,
        counted.context_length,
        counted.frequencies,
    )
    seed_where, seed_params = scope.sql(request.window)
    # One owner's memories first, then the text match on them: through the full-text index a
    # common word would first gather every tenant's matching rows. Only the columns BM25 reads:
    # a whole row would carry its embedding along.
    if scope.user_id is not None:
        source, where = "owned", "TRUE"
        owned = (
            "owned AS MATERIALIZED (SELECT m.id, m.search_vector, m.context_vector "
            f"FROM memory_memory m WHERE {seed_where}),"
        )
    else:
        source, where, owned = "memory_memory", seed_where, ""
    matched, text = "m.search_vector @@ %(any_term)s::tsquery", "m.search_vector"
    frequency = f"SELECT lexeme, cardinality(positions)::float / c.own_norm FROM unnest({_queried('c.search_vector')})"
    if alpha > 0:
        matched = f"({matched} OR m.context_vector @@ %(any_term)s::tsquery)"
        text = "m.search_vector || m.context_vector"
        frequency += f"""
                        UNION ALL
                        SELECT lexeme, %(alpha)s * cardinality(positions) / c.context_norm
                        FROM unnest({_queried("c.context_vector")})"""
    sql = f"""
        WITH {owned} df AS (SELECT * FROM unnest(%(terms)s::text[], %(dfs)s::float[]) AS d(term, df)),
        -- The pool BM25 ranks is chosen by term frequency (ts_rank), as BM25 itself counts, not by
        -- cover density (ts_rank_cd), which reads every position and cost half the statement.
        candidates AS (
            SELECT m.id, m.search_vector, m.context_vector,
                   1 - %(b)s + %(b)s * length(m.search_vector) / %(own_length)s AS own_norm,
                   1 - %(b)s + %(b)s * length(m.context_vector) / %(context_length)s AS context_norm
            FROM {source} m
            WHERE {where} AND {matched}
            ORDER BY ts_rank({text}, %(any_term)s::tsquery) DESC, m.id LIMIT %(pool)s
        ),
        counted AS (
            SELECT c.id, u.lexeme, sum(u.tf) AS tf
            FROM candidates c CROSS JOIN LATERAL ({frequency}) AS u(lexeme, tf)
            GROUP BY c.id, u.lexeme
        )
        SELECT t.id, sum(ln(1 + (%(n)s - df.df + 0.5) / (df.df + 0.5)) * t.tf * (%(k1)s + 1) / (t.tf + %(k1)s)) AS score
        FROM counted t JOIN df ON df.term = t.lexeme
        GROUP BY t.id ORDER BY score DESC, t.id LIMIT %(k)s"""
    k1 = settings.HELIX_SEARCH_BM25_K1
    params = {
        **seed_params,
        "terms": terms,
        "dfs": [frequencies[t] for t in terms],
        "n": n,
        "own_length": own_length,
        "context_length": context_length,
        "alpha": alpha,
        "any_term": " | ".join(_quoted(t) for t in terms),
        "pool": settings.HELIX_SEARCH_BM25_K * 4,
        "k": settings.HELIX_SEARCH_BM25_K,
        "k1": k1,
        "b": settings.HELIX_SEARCH_BM25_B,
    }
    with reader().cursor() as cursor:
        cursor.execute(sql, params)
        scores = {memory_id: float(score) for memory_id, score in cursor.fetchall()}
    # The most any document could score for this query: every term, tf → ∞.
    idf = [math.log(1 + (n - frequencies[t] + 0.5) / (frequencies[t] + 0.5)) for t in terms]
    # ``terms`` trusts a query's words as far as they carry information, measured against two
    # words no memory holds: a question whose only indexed word is a common one ("What does the
    # user do for a living?": "live") does not make every memory holding that word a full match.
    unseen = math.log(1 + (n + 0.5) / 0.5)
    return Bm25(scores, ceiling=sum(idf) * (k1 + 1), once=max(sum(idf), 2 * unseen))


# "What does the user like?": an agent's question names the memory's owner as "the user", and a
# memory says "I". Matched as a word, it would find only memories that talk about other users.
_THE_USER = re.compile(r"\bthe\s+user(?:'s|s')?(?=\W|$)", re.IGNORECASE)


def matched_text(query: str) -> str:
    """The query as BM25 matches it: less "the user" (the owner, whom every memory is about)."""
    return _THE_USER.sub(" ", query)


def ranks(scores: dict[uuid.UUID, float]) -> dict[uuid.UUID, int]:
    return {memory_id: rank for rank, memory_id in enumerate(sorted(scores, key=lambda i: -scores[i]), start=1)}


def rare_tokens(query: str) -> list[str]:
    """Exact tokens a user expects to find verbatim: ids, paths, error codes, versions."""
    pattern = r"[\w.\-]*/[\w./\-]+|\b[0-9a-fA-F]{8}-[0-9a-fA-F\-]{27}\b|\b[A-Za-z]*\d[\w.\-]*|\b[A-Z]{2,}[\w\-]*"
    return [token for token in re.findall(pattern, query) if len(token) >= 3]


def _quoted(term: str) -> str:
    return "'" + term.replace("'", "''") + "'"


def vector_text(vector) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def rrf(rankings: list[dict[uuid.UUID, int]], k: int) -> dict[uuid.UUID, float]:
    fused: dict[uuid.UUID, float] = {}
    for ranking in rankings:
        for memory_id, rank in ranking.items():
            fused[memory_id] = fused.get(memory_id, 0.0) + 1.0 / (k + rank)
    return fused

"""BM25, written once: the term score every ranking uses (k1 ``HELIX_SEARCH_BM25_K1``, b
``HELIX_SEARCH_BM25_B``) and the one statement that ranks a corpus (memories, chunks) for a query.

A term's score is idf × saturated term frequency, the frequency normalized by its field's length
against the field's average: ``ln(1 + (N - df + 0.5) / (df + 0.5)) · t (k1 + 1) / (t + k1)`` with
``t = tf / (1 - b + b · len / avg)``. A corpus with a second field (a memory's words said before
it) is ranked as BM25F: each field's frequency normalized by that field's own length, then
weighted, summed and saturated. So a long, unrelated line said before a memory does not dilute the
memory's own words, and a word found only in a long context counts for little. The context weighs
less as the memory says more (``HELIX_SEARCH_CONTEXT_HALF_LENGTH``), except for a reply to a
question (``HELIX_SEARCH_REPLY_CONTEXT``): "It's about loss, identity, and connection" answers "Is
that your third one?", and what it is about is said only in the question, however long the reply.

The statistics (N, df, average lengths) are those of the rows the reader may see
(``memory.search.corpus``), so scores reveal nothing about other workspaces. Deduplication's
candidates (``memory.ingest.candidates``) rank an owner's memories with the same term score, the
same kept statistics (of the workspaces that see the write domain) and the same rarest-terms rule.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.conf import settings

from helixsite.db.replicas import prepared_reader
from memory.ingest.extract import ASSISTANT
from memory.search.corpus import Corpus, statistics_of_text


def parameters() -> dict[str, float]:
    """The statement parameters every BM25 fragment reads: ``%(k1)s`` and ``%(b)s``."""
    return {"k1": settings.HELIX_SEARCH_BM25_K1, "b": settings.HELIX_SEARCH_BM25_B}


def length_norm(length: str, average: str) -> str:
    """SQL: what a field's term frequency is divided by, for a field of ``length`` lexemes."""
    return f"1 - %(b)s + %(b)s * {length} / {average}"


def term_score(*, n: str, df: str, tf: str) -> str:
    """SQL: one term's score, from its length-normalized frequency ``tf``."""
    return f"ln(1 + ({n} - {df} + 0.5) / ({df} + 0.5)) * {tf} * (%(k1)s + 1) / ({tf} + %(k1)s)"


@dataclass(frozen=True)
class Bm25:
    scores: dict[uuid.UUID, float]
    ceiling: float  # the best score any document could reach for the query
    once: float = 0.0  # the score of a document of average length holding each query term once
    idf: dict[str, float] = field(default_factory=dict)  # per query term (lexeme)
    documents: float = 0.0  # the rows the reader may see, N
    frequencies: dict[str, float] = field(default_factory=dict)  # rows holding each query term, df

    def normalized(self, row_id: uuid.UUID, method: str) -> float:
        """``query``: the share of the query matched, so one common word earns little;
        ``terms``: the share of every query term said once (or of two words no row holds,
        when the query's words carry less), so a long question's best matches are not made
        small by words no row would repeat;
        ``max``: relative to the best candidate, which always earns 1."""
        score = self.scores.get(row_id, 0.0)
        if method == "max":
            return score / (max(self.scores.values(), default=0.0) or 1.0)
        scale = self.once if method == "terms" else self.ceiling
        return min(score / scale, 1.0) if scale > 0 else 0.0


NOTHING = Bm25({}, 1.0)


def holding_once(bm25: Bm25, rows: list[uuid.UUID], lexemes: list[str], weight: float) -> Bm25:
    """``bm25`` with each of ``rows`` scored as if it also held ``lexemes`` once, at a length of the
    average: the score of each of those terms is then its idf (``term_score`` with ``tf`` 1), counted
    as BM25 would count it if those rows held it: their number adds to its document frequency (a
    kind's word no row says is otherwise as rare as a word can be, and every one of fifty rows naming
    a city would outweigh the one row holding the question's rarest word). A lexeme the query did not
    have is scored as its rarest term. ``weight`` scales the addition."""
    if not rows or not lexemes or weight <= 0:
        return bm25
    rarest = max(bm25.idf.values(), default=0.0)

    def idf(lexeme: str) -> float:
        if lexeme not in bm25.frequencies:
            return rarest
        df = bm25.frequencies[lexeme] + len(rows)
        return math.log(1 + max(bm25.documents - df + 0.5, 0.0) / (df + 0.5))

    added = weight * sum(idf(lexeme) for lexeme in lexemes)
    scores = dict(bm25.scores)
    for row_id in rows:
        scores[row_id] = scores.get(row_id, 0.0) + added
    return replace(bm25, scores=scores)


def bm25_rank(corpus: Corpus, *, readable: list[int] | None, where: str, params: dict, text: str, owned: bool) -> Bm25:
    """The ``HELIX_SEARCH_BM25_K`` rows of ``corpus`` matching ``where`` (over its alias) that best
    match ``text``, counted as a reader who sees ``readable`` counts the corpus. ``owned``: the
    rows are one owner's, gathered first, then matched: through the full-text index a common word
    would first gather every tenant's matching rows."""
    ranked, _ = _rank(
        corpus, readable=readable, where=where, params=params, text=text, owned=owned, cap=None, prepared=False
    )
    return ranked


def bm25_rank_gathered(
    corpus: Corpus,
    *,
    readable: list[int] | None,
    where: str,
    params: dict,
    text: str,
    up_to: int,
    prepared: bool = False,
) -> Bm25 | None:
    """As ``bm25_rank`` with the rows gathered first, if ``where`` leaves at most ``up_to`` of
    them; None when it leaves more (they are better matched through the full-text index).
    ``prepared``: the filter's plan does not depend on its values (``Scope.steady``): the
    statement is prepared on the server."""
    ranked, gathered = _rank(
        corpus, readable=readable, where=where, params=params, text=text, owned=True, cap=up_to, prepared=prepared
    )
    return None if gathered is not None and gathered > up_to else ranked


def _rank(
    corpus: Corpus,
    *,
    readable: list[int] | None,
    where: str,
    params: dict,
    text: str,
    owned: bool,
    cap: int | None,
    prepared: bool,
) -> tuple[Bm25, int | None]:
    """The ranking, and with a ``cap`` on the gathered rows, how many were gathered (at most cap + 1)."""
    terms, counted = statistics_of_text(corpus, readable, text)
    if not terms:
        return NOTHING, None
    weights = term_weights(terms)
    context_weight = settings.HELIX_SEARCH_CONTEXT_WEIGHT if corpus.context else 0.0
    statement = _statement(corpus, where, owned=owned, with_context=context_weight > 0, capped=cap is not None)
    values = {
        **params,
        **parameters(),
        "terms": terms,
        "dfs": [counted.frequencies[t] for t in terms],
        "weights": weights,
        "n": counted.documents,
        "own_length": counted.own_length,
        "context_length": counted.context_length,
        "alpha": context_weight,
        "half": settings.HELIX_SEARCH_CONTEXT_HALF_LENGTH,
        "replies": settings.HELIX_SEARCH_REPLY_CONTEXT,
        "assistant": ASSISTANT,
        "any_term": " | ".join(quoted(t) for t in terms),
        "essential": " | ".join(quoted(t) for t in essential_terms(terms, counted.frequencies)),
        "match_rows": settings.HELIX_SEARCH_BM25_MATCH_ROWS,
        "pool": settings.HELIX_SEARCH_BM25_K * 4,
        "k": settings.HELIX_SEARCH_BM25_K,
        "gather": (cap or 0) + 1,
    }
    # One owner's rows gathered are planned alike for any owner and terms; through the full-text
    # index, the plan depends on how common the terms are.
    with prepared_reader(owned and prepared) as cursor:
        cursor.execute(statement, values)
        rows = cursor.fetchall()
    gathered = None
    if cap is not None:  # the last row counts the gathered rows
        gathered = int(rows.pop()[1])
    scores = {row_id: float(score) for row_id, score in rows}
    return _bounded(scores, counted.documents, [counted.frequencies[t] for t in terms], terms, weights), gathered


def term_weights(terms: list[str]) -> list[float]:
    """Each of a query's ``terms``' weight: 1, but a hyphenated word is one term however the index
    splits it. The parser gives "tracking-api" as itself and its parts ("tracking-api", "track",
    "api"), so every row naming the service would score three terms for one word, above the rarer
    word that tells one row from another ("node drains"); and a row that writes the word apart
    ("dairy free" for "dairy-free") holds only the parts. So the parts share one term's weight, and
    the whole word, which only rows holding its parts hold too, adds nothing. Linear in the terms:
    each piece of a whole word finds its lexeme in one of a few dictionary lookups."""
    single = [t for t in terms if "-" not in t]
    lexeme_of = _lexemes_by_piece(single)
    weights = dict.fromkeys(terms, 1.0)
    for compound in (t for t in terms if "-" in t):
        parts = {found for piece in compound.split("-") if (found := lexeme_of(piece)) is not None}
        if not parts:
            continue  # its parts are stop words: the whole word is the term
        weights[compound] = 0.0
        for part in parts:
            weights[part] = min(weights[part], 1.0 / len(parts))
    return [weights[t] for t in terms]


def _lexemes_by_piece(lexemes: list[str]) -> Callable[[str], str | None]:
    """The lexeme a piece of a whole word was stemmed to: "track" for "tracking", "care" for
    "car" (the whole word "self-car" is stemmed at its end, each part alone), "dairi" for "dairy".
    A piece and its lexeme agree but for the shorter's last letter, and differ in length by at
    most three: the lexeme is the piece itself, or one of at most four letters longer sharing all
    but the piece's last letter, or one letter longer than a cut of the piece."""
    by_cut: dict[str, str] = {}  # a lexeme by itself less its last letter
    by_prefix: dict[str, str] = {}  # a lexeme by each prefix that leaves out one to four letters
    for lexeme in lexemes:
        by_cut.setdefault(lexeme[:-1], lexeme)
        for cut in range(max(1, len(lexeme) - 4), len(lexeme)):
            by_prefix.setdefault(lexeme[:cut], lexeme)
    known = set(lexemes)

    def lexeme_of(piece: str) -> str | None:
        if piece in known:
            return piece
        if len(piece) < 2:
            return None
        if (found := by_prefix.get(piece[:-1])) is not None:
            return found
        for cut in range(len(piece) - 2, max(0, len(piece) - 5), -1):
            if (found := by_cut.get(piece[:cut])) is not None:
                return found
        return None

    return lexeme_of


def essential_terms(terms: list[str], frequencies: dict[str, float], budget: float | None = None) -> list[str]:
    """The terms a ranking through the full-text index matches rows by: the rarest first, while the
    rows holding them (their document frequencies) fit ``HELIX_SEARCH_BM25_MATCH_ROWS``, and always
    the rarest. A row holding none of them holds only commoner words, each worth less (a lower
    idf), so it is rarely among the best; the others' words still count in its score. So a large
    owner's query with a common word ("use", "like") does not score every row holding it. ``budget``:
    the rows, when not ``HELIX_SEARCH_BM25_MATCH_ROWS``."""
    budget = settings.HELIX_SEARCH_BM25_MATCH_ROWS if budget is None else budget
    kept: list[str] = []
    rows = 0.0
    for term in sorted(terms, key=lambda t: (frequencies[t], t)):
        rows += frequencies[term]
        if kept and rows > budget:
            break
        kept.append(term)
    return kept


def _bounded(
    scores: dict[uuid.UUID, float], n: float, frequencies: list[float], terms: list[str], weights: list[float]
) -> Bm25:
    """The scores with their scales: the most any row could score (every term, tf → ∞), and a
    query's words trusted as far as they carry information, measured against two words no row
    holds: a question whose only indexed word is a common one ("What does the user do for a
    living?": "live") does not make every row holding that word a full match."""
    idf = [math.log(1 + (n - df + 0.5) / (df + 0.5)) for df in frequencies]
    weighed = sum(w * i for w, i in zip(weights, idf, strict=True))  # as the terms are scored (term_weights)
    unseen = math.log(1 + (n + 0.5) / 0.5)
    return Bm25(
        scores,
        ceiling=weighed * (settings.HELIX_SEARCH_BM25_K1 + 1),
        once=max(weighed, 2 * unseen),
        idf=dict(zip(terms, idf, strict=True)),
        documents=n,
        frequencies=dict(zip(terms, frequencies, strict=True)),
    )


def _statement(corpus: Corpus, where: str, *, owned: bool, with_context: bool, capped: bool = False) -> str:
    a, own, context = corpus.alias, "search_vector", corpus.context
    fields = f"{a}.id, {a}.{own}" + (f", {a}.{context}" if context else "")
    gathered, source, replies = "", corpus.table, _replies(a)
    if owned:  # the owner's rows gathered first, each read once for whether it replies to a question
        kept = f"{fields}, {replies} AS replies" if context else fields
        cap = "LIMIT %(gather)s" if capped else ""
        gathered = f"owned AS MATERIALIZED (SELECT {kept} FROM {corpus.table} {a} WHERE {where} {cap}),"
        source, where, replies = "owned", "TRUE", f"{a}.replies"
    # Gathered, every row is matched by every term; through the index, by the essential terms, and
    # at most match_rows of them read (one owner's rows are few; a workspace's may be millions).
    query = "%(any_term)s" if owned else "%(essential)s"
    matched, text = f"{a}.{own} @@ {query}::tsquery", f"{a}.{own}"
    norms = f"{length_norm(f'length({a}.{own})', '%(own_length)s')} AS own_norm"
    frequency = f"SELECT lexeme, cardinality(positions)::float / c.own_norm FROM unnest({_queried(f'c.{own}')})"
    if with_context:
        matched = f"({matched} OR {a}.{context} @@ {query}::tsquery)"
        text = f"{a}.{own} || {a}.{context}"
        norms += f", {length_norm(f'length({a}.{context})', '%(context_length)s')} AS context_norm"
        norms += (
            f", (CASE WHEN {replies} THEN %(alpha)s ELSE {_context_share(f'length({a}.{own})')} END) AS context_share"
        )
        frequency += f"""
                        UNION ALL
                        SELECT lexeme, c.context_share * cardinality(positions) / c.context_norm
                        FROM unnest({_queried(f"c.{context}")})"""
    if not owned:  # the matching rows read, at most match_rows, before any is ranked
        columns = f"{a}.id, {a}.{own}" + (f", {a}.{context}, {a}.context, {a}.facets" if context else "")
        source = f"(SELECT {columns} FROM {corpus.table} {a} WHERE {where} AND {matched} LIMIT %(match_rows)s)"
        where, matched = "TRUE", "TRUE"
    # Gathered with a cap, a last row counts what was gathered (the caller needs to know if it was all).
    counted_rows = " UNION ALL SELECT NULL, count(*), 1 FROM owned" if owned and capped else ""
    return f"""
        WITH {gathered} df AS (
            SELECT * FROM unnest(%(terms)s::text[], %(dfs)s::float[], %(weights)s::float[]) AS d(term, df, weight)
        ),
        -- The pool BM25 ranks is chosen by term frequency (ts_rank), as BM25 itself counts, not by
        -- cover density (ts_rank_cd), which reads every position and cost half the statement.
        candidates AS (
            SELECT {fields}, {norms}
            FROM {source} {a}
            WHERE {where} AND {matched}
            ORDER BY ts_rank({text}, %(any_term)s::tsquery) DESC, {a}.id LIMIT %(pool)s
        ),
        counted AS (
            SELECT c.id, u.lexeme, sum(u.tf) AS tf
            FROM candidates c CROSS JOIN LATERAL ({frequency}) AS u(lexeme, tf)
            GROUP BY c.id, u.lexeme
        ),
        ranked AS (
            SELECT t.id, sum(df.weight * {term_score(n="%(n)s", df="df.df", tf="t.tf")}) AS score
            FROM counted t JOIN df ON df.term = t.lexeme
            GROUP BY t.id ORDER BY score DESC, t.id LIMIT %(k)s
        )
        SELECT id, score FROM (SELECT id, score, 0 AS part FROM ranked{counted_rows}) r
        ORDER BY part, score DESC, id"""


def _context_share(own_length: str) -> str:
    """SQL: the weight of a row's context, ``alpha``, less as the row's own words say more: at
    ``half`` lexemes of its own a row's context counts half (0: every row's counts in full)."""
    return f"(CASE WHEN %(half)s > 0 THEN %(alpha)s * %(half)s / (%(half)s + {own_length}) ELSE %(alpha)s END)"


def _replies(a: str) -> str:
    """SQL: row ``a`` answers a question: what was said just before it ends with a question mark,
    and it is not the assistant's (an assistant's answer to the owner's question stands on its own
    words, code and all)."""
    return (
        f"(%(replies)s AND right(rtrim({a}.context), 1) = '?'"
        f" AND {a}.facets->>'speaker' IS DISTINCT FROM %(assistant)s)"
    )


def _queried(vector: str) -> str:
    """A vector's entries for the query's terms only, cut out in C (deleting what deleting the
    terms leaves) rather than by unnesting every word of every candidate and filtering the rows."""
    return f"ts_delete({vector}, tsvector_to_array(ts_delete({vector}, %(terms)s::text[])))"


def quoted(term: str) -> str:
    """A lexeme as a tsquery operand."""
    return "'" + term.replace("'", "''") + "'"

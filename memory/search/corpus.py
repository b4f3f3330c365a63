"""BM25's corpus statistics, kept as the rows change instead of counted at search time.

Per *visibility set* (a row's ``visible_in``, the exact array of workspaces that see it) and
lexeme: how many counted rows hold the lexeme; per set, under the lexeme ``''`` (no real
lexeme is empty), how many rows there are and the sums of their field lengths. Every row is in
exactly one set, so a reader's statistics are the sums over the sets that share a workspace
with what the reader may see: exact, and never counted over another tenant's rows.

Triggers write every change as a delta row (``memory_corpustermdelta``), appended, never
updated, so concurrent writers never wait on one another's counters; a write of many rows in
one statement adds one delta per set and lexeme. ``corpus_fold`` (the worker, every minute)
moves the deltas into the totals (``memory_corpusterm``) in one transaction. A reader sums
totals and pending deltas in one statement, so it sees exactly the rows committed before it.

What counts: memories not forgotten (an expired memory counts until the lifecycle sweep
deletes it; it is of the same workspaces, so nothing leaks), and document chunks of the
current version of documents not forgotten.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction

from helixsite.db.replicas import prepared_reader


@dataclass(frozen=True)
class Corpus:
    """A table BM25 searches, and which of its rows count."""

    name: str  # the value of the ``corpus`` column
    table: str
    alias: str  # what statements over the table call a row of it
    live: str  # SQL over a row ``{a}``: it may be read at all (memory.search.scope)
    event_time: str  # the column a time window bounds
    counted: str  # SQL over a row ``r``: the row is searchable
    watched: tuple[str, ...]  # columns whose change can change what the row adds
    context: str | None = None  # the second field's tsvector column, if any

    @property
    def prefix(self) -> str:
        return f"{self.table}_corpus"


MEMORIES = Corpus(
    "memory",
    "memory_memory",
    alias="m",
    live="{a}.deleted_at IS NULL AND ({a}.expires_at IS NULL OR {a}.expires_at > now())",
    event_time="valid_from",
    counted="r.deleted_at IS NULL",
    watched=("deleted_at", "visible_in", "content", "context"),
    context="context_vector",
)
CHUNKS = Corpus(
    "chunk",
    "documents_chunk",
    alias="c",
    live="{a}.deleted_at IS NULL AND {a}.superseded_at IS NULL",
    event_time="created_at",
    counted="r.deleted_at IS NULL AND r.superseded_at IS NULL",
    watched=("deleted_at", "superseded_at", "visible_in", "heading", "text"),
)
TOTALS = "memory_corpusterm"
DELTAS = "memory_corpustermdelta"
_COLUMNS = "corpus, visibility, term, documents, own_length, context_length"
_FOLD_LOCK = "hashtext('memory_corpus_fold')"


@dataclass(frozen=True)
class Statistics:
    documents: float
    own_length: float  # average length, in lexemes, of the first field
    context_length: float
    frequencies: dict[str, float]  # per query term: how many rows hold it


def statistics(corpus: Corpus, readable: list[int] | None, terms: list[str]) -> Statistics:
    """The corpus as a reader who sees ``readable`` (None: every workspace) sees it."""
    wanted = "SELECT DISTINCT unnest(%(terms)s::text[]) AS term"
    _, counted = _statistics(corpus, readable, wanted, {"terms": ["", *terms]})
    return counted


def statistics_of_text(corpus: Corpus, readable: list[int] | None, text: str) -> tuple[list[str], Statistics]:
    """The lexemes of ``text`` as the index stores them (english stemming, stop words dropped),
    sorted, and the corpus's statistics for them, in one round trip."""
    wanted = "SELECT DISTINCT unnest(ARRAY[''] || tsvector_to_array(to_tsvector('english', %(text)s))) AS term"
    return _statistics(corpus, readable, wanted, {"text": text})


def statistics_of_texts(
    corpus: Corpus, readable: list[int] | None, given: list[str]
) -> tuple[list[list[str]], Statistics]:
    """Each of the ``given`` texts' lexemes, sorted, and the corpus's statistics for all of them, in
    one round trip (each text made lexemes once)."""
    texts = (
        "texts AS (SELECT x.i - 1 AS at, tsvector_to_array(to_tsvector('english', x.t)) AS terms"
        " FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS x(t, i))"
    )
    wanted = "SELECT '' AS term UNION SELECT unnest(terms) FROM texts"
    # Which texts hold each term, by their place in ``texts``.
    holders = "ARRAY(SELECT at FROM texts WHERE w.term = ANY(texts.terms))"
    held: dict[str, list[int]] = {}
    terms, counted = _statistics(corpus, readable, wanted, {"texts": given}, holders, held, texts)
    lexemes: list[list[str]] = [[] for _ in given]
    for term in terms:
        for at in held[term]:
            lexemes[at].append(term)
    return lexemes, counted


def _statistics(
    corpus: Corpus,
    readable: list[int] | None,
    wanted: str,
    params: dict,
    holders: str = "NULL::int[]",
    held: dict[str, list[int]] | None = None,
    before: str = "",
) -> tuple[list[str], Statistics]:
    """The statistics of the terms ``wanted`` selects ('' among them: the corpus's own totals);
    with ``holders`` (SQL over a term ``w.term``), what it gives each term, in ``held``; ``before``:
    a query ``wanted`` and ``holders`` read ("name AS (…)")."""
    visible = "" if readable is None else "AND visibility && %(readable)s::int[]"
    picked = f"corpus = %(corpus)s AND term = ANY(ARRAY(SELECT term FROM wanted)) {visible}"
    with prepared_reader() as cursor:
        cursor.execute(
            f"""WITH {before + "," if before else ""} wanted AS ({wanted}),
                counts AS (
                    SELECT term, documents, own_length, context_length FROM {TOTALS} WHERE {picked}
                    UNION ALL
                    SELECT term, documents, own_length, context_length FROM {DELTAS} WHERE {picked}
                )
                SELECT w.term, sum(c.documents), sum(c.own_length), sum(c.context_length), {holders}
                FROM wanted w LEFT JOIN counts c ON c.term = w.term GROUP BY w.term""",
            {**params, "corpus": corpus.name, "readable": readable},
        )
        rows = {}
        for term, n, own, context, holding in cursor:
            rows[term] = (float(n or 0), float(own or 0), float(context or 0))
            if held is not None:
                held[term] = list(holding or [])
    n, own, context = rows.pop("", (0.0, 0.0, 0.0))
    terms = sorted(rows)
    # An empty field everywhere still divides by something: its length is then 0 for every row.
    return terms, Statistics(
        documents=n,
        own_length=(own / n if n else 0.0) or 1.0,
        context_length=(context / n if n else 0.0) or 1.0,
        frequencies={term: rows[term][0] for term in terms},
    )


def corpus_fold(*, wait: bool = False) -> int:
    """Move the pending deltas into the totals; the number of totals written. Another fold
    already running makes this one a no-op, unless asked to ``wait`` for it."""
    return deltas_fold(
        lock=_FOLD_LOCK,
        wait=wait,
        deltas=DELTAS,
        statements=[
            f"""WITH gone AS (DELETE FROM {DELTAS} RETURNING {_COLUMNS})
                INSERT INTO {TOTALS} AS k ({_COLUMNS})
                SELECT corpus, visibility, term, sum(documents), sum(own_length), sum(context_length)
                FROM gone GROUP BY corpus, visibility, term
                ON CONFLICT (corpus, term, visibility) DO UPDATE SET
                    documents = k.documents + excluded.documents,
                    own_length = k.own_length + excluded.own_length,
                    context_length = k.context_length + excluded.context_length""",
            f"DELETE FROM {TOTALS} WHERE documents = 0",
        ],
    )


def deltas_fold(*, lock: str, wait: bool, deltas: str, statements: list[str]) -> int:
    """Run ``statements`` (the first folds ``deltas`` into their totals) in one transaction under
    the advisory ``lock``; the rows the first wrote. Another fold holding the lock makes this one a
    no-op, unless asked to ``wait`` for it. Kept counters (these statistics, the category counts)
    fold this way."""
    with transaction.atomic(), connection.cursor() as cursor:
        if wait:
            cursor.execute(f"SELECT pg_advisory_xact_lock({lock})")
        else:
            cursor.execute(f"SELECT pg_try_advisory_xact_lock({lock})")
            if not cursor.fetchone()[0]:
                return 0
        cursor.execute(statements[0])
        folded = cursor.rowcount
        for statement in statements[1:]:
            cursor.execute(statement)
    if not connection.in_atomic_block:
        # The deltas just deleted stay in the table and its index until a vacuum: a search would
        # step over every one of them (after a large load, millions: 0.2 s a search) until
        # autovacuum comes round. Vacuuming the nearly empty table takes milliseconds.
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM (SKIP_LOCKED) {deltas}")
    return folded


def corpus_recount(corpus: Corpus) -> int:
    """Count the corpus afresh (for the first time, or to repair): writers of its table wait
    while it runs; readers go on. The number of totals written."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_advisory_xact_lock({_FOLD_LOCK})")
        cursor.execute(f"LOCK TABLE {corpus.table} IN SHARE MODE")
        for table in (TOTALS, DELTAS):
            cursor.execute(f"DELETE FROM {table} WHERE corpus = %s", [corpus.name])
        cursor.execute(f"INSERT INTO {TOTALS} ({_COLUMNS}) {_counted(corpus, f'{corpus.table} r', 1)}")
        return cursor.rowcount


def _counted(corpus: Corpus, rows: str, sign: int) -> str:
    """SELECT the contribution of ``rows`` (a FROM item named ``r``), times ``sign``."""
    context = f"sum(length(r.{corpus.context}))" if corpus.context else "0"
    return f"""
        SELECT '{corpus.name}', r.visible_in, t.term, {sign} * count(*), 0, 0
        FROM {rows} CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE {corpus.counted} GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT '{corpus.name}', r.visible_in, '', {sign} * count(*),
               {sign} * sum(length(r.search_vector)), {sign} * {context}
        FROM {rows} WHERE {corpus.counted} GROUP BY r.visible_in"""


def install_sql(corpus: Corpus) -> list[str]:
    """The functions and triggers that keep ``corpus`` counted. Inserts and deletes are counted
    a statement at a time (one delta per set and lexeme however many rows); an update only when
    it changes what the row adds (the trigger's WHEN is evaluated without calling anything)."""
    p, t = corpus.prefix, corpus.table
    changed = " OR ".join(f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in corpus.watched)
    return [
        f"""CREATE FUNCTION {p}_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO {DELTAS} ({_COLUMNS}) {_counted(corpus, "added r", 1)}; RETURN NULL; END $$""",
        f"""CREATE FUNCTION {p}_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO {DELTAS} ({_COLUMNS}) {_counted(corpus, "removed r", -1)}; RETURN NULL; END $$""",
        f"""CREATE FUNCTION {p}_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO {DELTAS} ({_COLUMNS})
                {_counted(corpus, "(SELECT OLD.*) r", -1)}
                UNION ALL
                {_counted(corpus, "(SELECT NEW.*) r", 1)};
                RETURN NULL;
            END $$""",
        f"""CREATE TRIGGER {p}_added AFTER INSERT ON {t} REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION {p}_added()""",
        f"""CREATE TRIGGER {p}_removed AFTER DELETE ON {t} REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION {p}_removed()""",
        f"""CREATE TRIGGER {p}_changed AFTER UPDATE ON {t} FOR EACH ROW WHEN ({changed})
            EXECUTE FUNCTION {p}_changed()""",
    ]


def uninstall_sql(corpus: Corpus) -> list[str]:
    p, t = corpus.prefix, corpus.table
    return [f"DROP TRIGGER IF EXISTS {p}_{event} ON {t}" for event in ("added", "removed", "changed")] + [
        f"DROP FUNCTION IF EXISTS {p}_{event}()" for event in ("added", "removed", "changed")
    ]

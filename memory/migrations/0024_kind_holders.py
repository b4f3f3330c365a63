"""Which kinds of thing each memory names an instance of, kept as memories are written instead of
matched at every question that asks for a kind (memory.search.kinds).

The lexicon as the full-text index parses it: a row per kind (``memory_kind``: the query its own
word makes, its instances' query, the query of their lexemes each once, which a holder is ranked by;
the two as text, too long for a row as queries) and a row per lexeme of an instance
(``memory_kindword``: the lexeme, its kind, and for a phrase the phrase's query, the lexeme being
the phrase's longest). ``memory_kindlexicon`` holds the digest of what the rows in place were made
from; after every migrate ``kind_lexicon_sync`` (memory.search.kinds) makes them again from the
lexicon file when that differs, and reads every memory again.

``memory_kindholder``: per memory and kind it names an instance of without the kind's own word, its
rank by the instances' query (``ts_rank``, as the search ranked holders before). Triggers keep it as
memories are added, rewritten, deleted or truncated; its owner column (the memory's) lets a search
read one owner's holders of a kind through an index. Plain tables: a flush of the test database
truncates the memories, and the holders with them; the lexicon's rows stay. The schema the release
before reads is unchanged; migrated back, the triggers go and the tables stay (the release before
never reads them)."""

from django.db import migrations

CREATE = [
    "CREATE TABLE IF NOT EXISTS memory_kind"
    " (kind text PRIMARY KEY, word tsquery NOT NULL, instances text NOT NULL, ranking text NOT NULL)",
    "CREATE TABLE IF NOT EXISTS memory_kindword (lexeme text NOT NULL, kind text NOT NULL, phrase tsquery)",
    "CREATE INDEX IF NOT EXISTS memory_kindword_lexeme ON memory_kindword (lexeme)",
    "CREATE TABLE IF NOT EXISTS memory_kindlexicon (digest text NOT NULL)",
    "CREATE TABLE IF NOT EXISTS memory_kindholder (memory_id uuid NOT NULL, user_id varchar(200) NOT NULL,"
    " kind text NOT NULL, rank real NOT NULL, PRIMARY KEY (memory_id, kind))",
    "CREATE INDEX IF NOT EXISTS memory_kindholder_owner ON memory_kindholder (user_id, kind)",
    # The kinds ``v`` names an instance of, each with its rank: one of its lexemes is a one-word
    # instance, or the anchor of a phrase it holds; and not the kind's own word.
    """CREATE OR REPLACE FUNCTION memory_kinds_held(v tsvector) RETURNS TABLE (kind text, rank real)
        LANGUAGE sql STABLE AS $$
        SELECT k.kind, ts_rank(v, k.ranking::tsquery) FROM memory_kind k
        WHERE k.kind IN (SELECT w.kind FROM memory_kindword w
                         WHERE w.lexeme = ANY (tsvector_to_array(v)) AND (w.phrase IS NULL OR v @@ w.phrase))
          AND NOT v @@ k.word
    $$""",
    """CREATE OR REPLACE FUNCTION memory_memory_kinds_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM memory_kindholder h USING added a WHERE h.memory_id = a.id;
        INSERT INTO memory_kindholder (memory_id, user_id, kind, rank)
            SELECT a.id, a.user_id, k.kind, k.rank FROM added a, memory_kinds_held(a.search_vector) k;
        RETURN NULL;
    END $$""",
    """CREATE OR REPLACE FUNCTION memory_memory_kinds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM memory_kindholder WHERE memory_id = OLD.id;
        INSERT INTO memory_kindholder (memory_id, user_id, kind, rank)
            SELECT NEW.id, NEW.user_id, k.kind, k.rank FROM memory_kinds_held(NEW.search_vector) k;
        RETURN NULL;
    END $$""",
    """CREATE OR REPLACE FUNCTION memory_memory_kinds_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM memory_kindholder h USING removed r WHERE h.memory_id = r.id;
        RETURN NULL;
    END $$""",
    """CREATE OR REPLACE FUNCTION memory_memory_kinds_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        TRUNCATE memory_kindholder;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER memory_memory_kinds_added AFTER INSERT ON memory_memory REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_kinds_added()""",
    """CREATE TRIGGER memory_memory_kinds_changed AFTER UPDATE ON memory_memory FOR EACH ROW
        WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.user_id IS DISTINCT FROM NEW.user_id)
        EXECUTE FUNCTION memory_memory_kinds_changed()""",
    """CREATE TRIGGER memory_memory_kinds_removed AFTER DELETE ON memory_memory REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_kinds_removed()""",
    """CREATE TRIGGER memory_memory_kinds_truncated AFTER TRUNCATE ON memory_memory
        FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_kinds_truncated()""",
]
DROP = [
    "DROP TRIGGER IF EXISTS memory_memory_kinds_added ON memory_memory",
    "DROP TRIGGER IF EXISTS memory_memory_kinds_changed ON memory_memory",
    "DROP TRIGGER IF EXISTS memory_memory_kinds_removed ON memory_memory",
    "DROP TRIGGER IF EXISTS memory_memory_kinds_truncated ON memory_memory",
    "DROP FUNCTION IF EXISTS memory_memory_kinds_added()",
    "DROP FUNCTION IF EXISTS memory_memory_kinds_changed()",
    "DROP FUNCTION IF EXISTS memory_memory_kinds_removed()",
    "DROP FUNCTION IF EXISTS memory_memory_kinds_truncated()",
    "DROP FUNCTION IF EXISTS memory_kinds_held(tsvector)",
    # The tables stay (no release reads them before this one): migrated forward again, their rows
    # are made anew, every memory read again, as no digest is there.
    "DELETE FROM memory_kindlexicon",
]


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0023_owner_indexes_schedule"),
    ]

    operations = [migrations.RunSQL(CREATE, DROP)]

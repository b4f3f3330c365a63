"""BM25's corpus statistics for document chunks, kept as chunks change (memory.search.corpus):
the triggers on documents_chunk and a first count. The tables and the fold are memory's."""

from django.db import migrations

# The SQL as this migration first ran it, frozen: live code may change, a migration does not.
INSTALL = [
    """CREATE FUNCTION documents_chunk_corpus_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO memory_corpustermdelta (corpus, visibility, term, documents, own_length, context_length) 
        SELECT 'chunk', r.visible_in, t.term, 1 * count(*), 0, 0
        FROM added r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'chunk', r.visible_in, '', 1 * count(*),
               1 * sum(length(r.search_vector)), 1 * 0
        FROM added r WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in; RETURN NULL; END $$""",
    """CREATE FUNCTION documents_chunk_corpus_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO memory_corpustermdelta (corpus, visibility, term, documents, own_length, context_length) 
        SELECT 'chunk', r.visible_in, t.term, -1 * count(*), 0, 0
        FROM removed r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'chunk', r.visible_in, '', -1 * count(*),
               -1 * sum(length(r.search_vector)), -1 * 0
        FROM removed r WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in; RETURN NULL; END $$""",
    """CREATE FUNCTION documents_chunk_corpus_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO memory_corpustermdelta (corpus, visibility, term, documents, own_length, context_length)
                
        SELECT 'chunk', r.visible_in, t.term, -1 * count(*), 0, 0
        FROM (SELECT OLD.*) r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'chunk', r.visible_in, '', -1 * count(*),
               -1 * sum(length(r.search_vector)), -1 * 0
        FROM (SELECT OLD.*) r WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in
                UNION ALL
                
        SELECT 'chunk', r.visible_in, t.term, 1 * count(*), 0, 0
        FROM (SELECT NEW.*) r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'chunk', r.visible_in, '', 1 * count(*),
               1 * sum(length(r.search_vector)), 1 * 0
        FROM (SELECT NEW.*) r WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in;
                RETURN NULL;
            END $$""",
    """CREATE TRIGGER documents_chunk_corpus_added AFTER INSERT ON documents_chunk REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION documents_chunk_corpus_added()""",
    """CREATE TRIGGER documents_chunk_corpus_removed AFTER DELETE ON documents_chunk REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION documents_chunk_corpus_removed()""",
    """CREATE TRIGGER documents_chunk_corpus_changed AFTER UPDATE ON documents_chunk FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.superseded_at IS DISTINCT FROM NEW.superseded_at OR OLD.visible_in IS DISTINCT FROM NEW.visible_in OR OLD.heading IS DISTINCT FROM NEW.heading OR OLD.text IS DISTINCT FROM NEW.text)
            EXECUTE FUNCTION documents_chunk_corpus_changed()""",
]

UNINSTALL = [
    """DROP TRIGGER IF EXISTS documents_chunk_corpus_added ON documents_chunk""",
    """DROP TRIGGER IF EXISTS documents_chunk_corpus_removed ON documents_chunk""",
    """DROP TRIGGER IF EXISTS documents_chunk_corpus_changed ON documents_chunk""",
    """DROP FUNCTION IF EXISTS documents_chunk_corpus_added()""",
    """DROP FUNCTION IF EXISTS documents_chunk_corpus_removed()""",
    """DROP FUNCTION IF EXISTS documents_chunk_corpus_changed()""",
]

RECOUNT = [
    """SELECT pg_advisory_xact_lock(hashtext('memory_corpus_fold'))""",
    """LOCK TABLE documents_chunk IN SHARE MODE""",
    """DELETE FROM memory_corpusterm WHERE corpus = 'chunk'""",
    """DELETE FROM memory_corpustermdelta WHERE corpus = 'chunk'""",
    """INSERT INTO memory_corpusterm (corpus, visibility, term, documents, own_length, context_length) 
        SELECT 'chunk', r.visible_in, t.term, 1 * count(*), 0, 0
        FROM documents_chunk r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'chunk', r.visible_in, '', 1 * count(*),
               1 * sum(length(r.search_vector)), 1 * 0
        FROM documents_chunk r WHERE r.deleted_at IS NULL AND r.superseded_at IS NULL GROUP BY r.visible_in""",
]


def count(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in RECOUNT:
            cursor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0002_resume_schedule"),
        ("memory", "0013_corpus_statistics"),
    ]
    operations = [
        migrations.RunSQL(INSTALL, UNINSTALL),
        migrations.RunPython(count, migrations.RunPython.noop),
    ]

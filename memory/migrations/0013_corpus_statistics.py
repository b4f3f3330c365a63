"""BM25's corpus statistics kept as memories change (memory.search.corpus): the tables, the
triggers on memory_memory, a first count, and the worker's fold every minute."""

import django.contrib.postgres.fields
from django.db import migrations, models
from django.utils import timezone

# The SQL as this migration first ran it, frozen: live code may change, a migration does not.
INSTALL = [
    """CREATE FUNCTION memory_memory_corpus_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO memory_corpustermdelta (corpus, visibility, term, documents, own_length, context_length) 
        SELECT 'memory', r.visible_in, t.term, 1 * count(*), 0, 0
        FROM added r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'memory', r.visible_in, '', 1 * count(*),
               1 * sum(length(r.search_vector)), 1 * sum(length(r.context_vector))
        FROM added r WHERE r.deleted_at IS NULL GROUP BY r.visible_in; RETURN NULL; END $$""",
    """CREATE FUNCTION memory_memory_corpus_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO memory_corpustermdelta (corpus, visibility, term, documents, own_length, context_length) 
        SELECT 'memory', r.visible_in, t.term, -1 * count(*), 0, 0
        FROM removed r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'memory', r.visible_in, '', -1 * count(*),
               -1 * sum(length(r.search_vector)), -1 * sum(length(r.context_vector))
        FROM removed r WHERE r.deleted_at IS NULL GROUP BY r.visible_in; RETURN NULL; END $$""",
    """CREATE FUNCTION memory_memory_corpus_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO memory_corpustermdelta (corpus, visibility, term, documents, own_length, context_length)
                
        SELECT 'memory', r.visible_in, t.term, -1 * count(*), 0, 0
        FROM (SELECT OLD.*) r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'memory', r.visible_in, '', -1 * count(*),
               -1 * sum(length(r.search_vector)), -1 * sum(length(r.context_vector))
        FROM (SELECT OLD.*) r WHERE r.deleted_at IS NULL GROUP BY r.visible_in
                UNION ALL
                
        SELECT 'memory', r.visible_in, t.term, 1 * count(*), 0, 0
        FROM (SELECT NEW.*) r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'memory', r.visible_in, '', 1 * count(*),
               1 * sum(length(r.search_vector)), 1 * sum(length(r.context_vector))
        FROM (SELECT NEW.*) r WHERE r.deleted_at IS NULL GROUP BY r.visible_in;
                RETURN NULL;
            END $$""",
    """CREATE TRIGGER memory_memory_corpus_added AFTER INSERT ON memory_memory REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_corpus_added()""",
    """CREATE TRIGGER memory_memory_corpus_removed AFTER DELETE ON memory_memory REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_corpus_removed()""",
    """CREATE TRIGGER memory_memory_corpus_changed AFTER UPDATE ON memory_memory FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.visible_in IS DISTINCT FROM NEW.visible_in OR OLD.content IS DISTINCT FROM NEW.content OR OLD.context IS DISTINCT FROM NEW.context)
            EXECUTE FUNCTION memory_memory_corpus_changed()""",
]

UNINSTALL = [
    """DROP TRIGGER IF EXISTS memory_memory_corpus_added ON memory_memory""",
    """DROP TRIGGER IF EXISTS memory_memory_corpus_removed ON memory_memory""",
    """DROP TRIGGER IF EXISTS memory_memory_corpus_changed ON memory_memory""",
    """DROP FUNCTION IF EXISTS memory_memory_corpus_added()""",
    """DROP FUNCTION IF EXISTS memory_memory_corpus_removed()""",
    """DROP FUNCTION IF EXISTS memory_memory_corpus_changed()""",
]

RECOUNT = [
    """SELECT pg_advisory_xact_lock(hashtext('memory_corpus_fold'))""",
    """LOCK TABLE memory_memory IN SHARE MODE""",
    """DELETE FROM memory_corpusterm WHERE corpus = 'memory'""",
    """DELETE FROM memory_corpustermdelta WHERE corpus = 'memory'""",
    """INSERT INTO memory_corpusterm (corpus, visibility, term, documents, own_length, context_length) 
        SELECT 'memory', r.visible_in, t.term, 1 * count(*), 0, 0
        FROM memory_memory r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search_vector)) AS t(term)
        WHERE r.deleted_at IS NULL GROUP BY r.visible_in, t.term
        UNION ALL
        SELECT 'memory', r.visible_in, '', 1 * count(*),
               1 * sum(length(r.search_vector)), 1 * sum(length(r.context_vector))
        FROM memory_memory r WHERE r.deleted_at IS NULL GROUP BY r.visible_in""",
]

NAME = "memory: fold search statistics"


def count(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in RECOUNT:
            cursor.execute(statement)


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={
            "func": "memory.tasks.corpus_fold",
            "schedule_type": "I",
            "minutes": 1,
            "repeats": -1,
            "next_run": timezone.now(),
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0012_reembed"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [
        migrations.CreateModel(
            name="CorpusTerm",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("corpus", models.CharField(help_text="memory or chunk", max_length=16)),
                (
                    "visibility",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.IntegerField(), help_text="the visible_in of the rows counted", size=None
                    ),
                ),
                ("term", models.TextField(help_text="a lexeme; empty: the set's totals")),
                ("documents", models.BigIntegerField(help_text="rows holding the lexeme (the set's rows, for '')")),
                ("own_length", models.BigIntegerField(default=0)),
                ("context_length", models.BigIntegerField(default=0)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("corpus", "term", "visibility"), name="corpusterm_key")
                ],
            },
        ),
        migrations.CreateModel(
            name="CorpusTermDelta",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("corpus", models.CharField(max_length=16)),
                ("visibility", django.contrib.postgres.fields.ArrayField(base_field=models.IntegerField(), size=None)),
                ("term", models.TextField()),
                ("documents", models.BigIntegerField()),
                ("own_length", models.BigIntegerField(default=0)),
                ("context_length", models.BigIntegerField(default=0)),
            ],
            options={
                "indexes": [models.Index(fields=["corpus", "term"], name="corpustermdelta_term")],
            },
        ),
        migrations.RunSQL(INSTALL, UNINSTALL),
        migrations.RunPython(count, migrations.RunPython.noop),
        migrations.RunPython(schedule, unschedule),
    ]

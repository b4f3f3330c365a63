"""Category counts kept as memories and filings change (memory.categories.counts): the tables,
the triggers on the filings and the memories, a first count, and the worker's fold every minute."""

import django.contrib.postgres.fields
import django.contrib.postgres.indexes
from django.db import migrations, models
from django.utils import timezone

# The SQL as this migration first ran it, frozen: live code may change, a migration does not.
INSTALL = [
    """CREATE FUNCTION categories_filing_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO categories_categorycountdelta (visibility, user_id, path, memories, newest) 
        SELECT r.visible_in, o.user_id, e.path, 1 * count(*), max(r.updated_at)
        FROM (SELECT DISTINCT f.memory_id, p.path FROM added f
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE TRUE) e JOIN memory_memory r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL AND NOT EXISTS (
            SELECT 1 FROM categories_filing g JOIN categories_category k ON k.id = g.category_id
            WHERE g.memory_id = e.memory_id AND k.lineage @> ARRAY[e.path]::varchar[] AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = g.id))
        GROUP BY r.visible_in, o.user_id, e.path; RETURN NULL; END $$""",
    """CREATE FUNCTION categories_filing_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO categories_categorycountdelta (visibility, user_id, path, memories, newest) 
        SELECT r.visible_in, o.user_id, e.path, -1 * count(*), NULL::timestamptz
        FROM (SELECT DISTINCT f.memory_id, p.path FROM removed f
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE TRUE) e JOIN memory_memory r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL AND NOT EXISTS (
            SELECT 1 FROM categories_filing g JOIN categories_category k ON k.id = g.category_id
            WHERE g.memory_id = e.memory_id AND k.lineage @> ARRAY[e.path]::varchar[] )
        GROUP BY r.visible_in, o.user_id, e.path; RETURN NULL; END $$""",
    """CREATE FUNCTION memory_memory_categories_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO categories_categorycountdelta (visibility, user_id, path, memories, newest) 
        SELECT r.visible_in, o.user_id, e.path, 1 * count(*), max(r.updated_at)
        FROM (SELECT DISTINCT f.memory_id, p.path FROM categories_filing f JOIN added x ON x.id = f.memory_id
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE TRUE) e JOIN added r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL 
        GROUP BY r.visible_in, o.user_id, e.path; RETURN NULL; END $$""",
    """CREATE FUNCTION memory_memory_categories_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO categories_categorycountdelta (visibility, user_id, path, memories, newest) 
        SELECT r.visible_in, o.user_id, e.path, -1 * count(*), NULL::timestamptz
        FROM (SELECT DISTINCT f.memory_id, p.path FROM categories_filing f JOIN removed x ON x.id = f.memory_id
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE TRUE) e JOIN removed r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL 
        GROUP BY r.visible_in, o.user_id, e.path; RETURN NULL; END $$""",
    """CREATE FUNCTION memory_memory_categories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO categories_categorycountdelta (visibility, user_id, path, memories, newest)
        
        SELECT r.visible_in, o.user_id, e.path, -1 * count(*), NULL::timestamptz
        FROM (SELECT DISTINCT f.memory_id, p.path FROM categories_filing f
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE f.memory_id = OLD.id) e JOIN (SELECT OLD.*) r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL 
        GROUP BY r.visible_in, o.user_id, e.path
        UNION ALL
        
        SELECT r.visible_in, o.user_id, e.path, 1 * count(*), max(r.updated_at)
        FROM (SELECT DISTINCT f.memory_id, p.path FROM categories_filing f
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE f.memory_id = OLD.id) e JOIN (SELECT NEW.*) r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL 
        GROUP BY r.visible_in, o.user_id, e.path; RETURN NULL; END $$""",
    """CREATE TRIGGER categories_filing_counts_added AFTER INSERT ON categories_filing
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION categories_filing_counts_added()""",
    """CREATE TRIGGER categories_filing_counts_removed AFTER DELETE ON categories_filing
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION categories_filing_counts_removed()""",
    """CREATE TRIGGER memory_memory_categories_added AFTER INSERT ON memory_memory
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_categories_added()""",
    """CREATE TRIGGER memory_memory_categories_removed AFTER DELETE ON memory_memory
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION memory_memory_categories_removed()""",
    """CREATE TRIGGER memory_memory_categories_changed AFTER UPDATE ON memory_memory
            FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.valid_to IS DISTINCT FROM NEW.valid_to OR OLD.visible_in IS DISTINCT FROM NEW.visible_in OR OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION memory_memory_categories_changed()""",
]

UNINSTALL = [
    """DROP TRIGGER IF EXISTS categories_filing_counts_added ON categories_filing""",
    """DROP TRIGGER IF EXISTS categories_filing_counts_removed ON categories_filing""",
    """DROP TRIGGER IF EXISTS memory_memory_categories_added ON memory_memory""",
    """DROP TRIGGER IF EXISTS memory_memory_categories_removed ON memory_memory""",
    """DROP TRIGGER IF EXISTS memory_memory_categories_changed ON memory_memory""",
    """DROP FUNCTION IF EXISTS categories_filing_counts_added()""",
    """DROP FUNCTION IF EXISTS categories_filing_counts_removed()""",
    """DROP FUNCTION IF EXISTS memory_memory_categories_added()""",
    """DROP FUNCTION IF EXISTS memory_memory_categories_removed()""",
    """DROP FUNCTION IF EXISTS memory_memory_categories_changed()""",
]

RECOUNT = [
    """SELECT pg_advisory_xact_lock(hashtext('categories_counts_fold'))""",
    """LOCK TABLE memory_memory, categories_filing IN SHARE MODE""",
    """INSERT INTO categories_categorycount (visibility, user_id, path, memories, newest) SELECT r.visible_in, o.user_id, e.path, 1 * count(*), max(r.updated_at)
        FROM (SELECT DISTINCT f.memory_id, p.path FROM categories_filing f
        JOIN categories_category c ON c.id = f.category_id CROSS JOIN LATERAL unnest(c.lineage) AS p(path)
        WHERE TRUE) e JOIN memory_memory r ON r.id = e.memory_id
        CROSS JOIN LATERAL (VALUES (r.user_id), (NULL)) AS o(user_id)
        WHERE r.deleted_at IS NULL AND r.valid_to IS NULL 
        GROUP BY r.visible_in, o.user_id, e.path""",
]

NAME = "categories: fold counts"


def count(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in RECOUNT:
            cursor.execute(statement)


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={
            "func": "memory.categories.tasks.counts_fold",
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
        ("categories", "0002_atlas_schedule"),
        ("memory", "0018_health_type"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [
        migrations.CreateModel(
            name="CategoryCountDelta",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("visibility", django.contrib.postgres.fields.ArrayField(base_field=models.IntegerField(), size=None)),
                ("user_id", models.CharField(blank=True, max_length=200, null=True)),
                ("path", models.CharField(max_length=164)),
                ("memories", models.BigIntegerField()),
                ("newest", models.DateTimeField(null=True)),
            ],
        ),
        migrations.CreateModel(
            name="CategoryCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "visibility",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.IntegerField(), help_text="the visible_in of the memories counted", size=None
                    ),
                ),
                (
                    "user_id",
                    models.CharField(blank=True, help_text="their owner; null: every owner", max_length=200, null=True),
                ),
                ("path", models.CharField(max_length=164)),
                ("memories", models.BigIntegerField()),
                ("newest", models.DateTimeField(help_text="the newest update of a memory counted in", null=True)),
            ],
            options={
                "indexes": [
                    django.contrib.postgres.indexes.GinIndex(fields=["visibility"], name="categorycount_visibility")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user_id", "path", "visibility"), name="categorycount_key", nulls_distinct=False
                    )
                ],
            },
        ),
        migrations.RunSQL(INSTALL, UNINSTALL),
        migrations.RunPython(count, migrations.RunPython.noop),
        migrations.RunPython(schedule, unschedule),
    ]

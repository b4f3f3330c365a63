"""Owners' memories kept per workspace (stewardship.owner_counts): the tables, the triggers on the
memories, a first count, and the worker's fold every minute."""

from django.db import migrations, models
from django.utils import timezone

# The SQL as this migration first ran it, frozen: live code may change, a migration does not.
INSTALL = [
    """CREATE FUNCTION stewardship_owner_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO stewardship_ownercountdelta (user_id, workspace_id, memories, held, newest) SELECT r.user_id, w.workspace_id, 1 * count(*) FILTER (WHERE r.deleted_at IS NULL AND r.valid_to IS NULL), 1 * count(*), max(r.updated_at)
        FROM added r CROSS JOIN LATERAL unnest(CASE WHEN cardinality(r.visible_in) > 0 THEN r.visible_in ELSE ARRAY[NULL]::int[] END) AS w(workspace_id)
        GROUP BY r.user_id, w.workspace_id; RETURN NULL; END $$""",
    """CREATE FUNCTION stewardship_owner_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO stewardship_ownercountdelta (user_id, workspace_id, memories, held, newest) SELECT r.user_id, w.workspace_id, -1 * count(*) FILTER (WHERE r.deleted_at IS NULL AND r.valid_to IS NULL), -1 * count(*), NULL::timestamptz
        FROM removed r CROSS JOIN LATERAL unnest(CASE WHEN cardinality(r.visible_in) > 0 THEN r.visible_in ELSE ARRAY[NULL]::int[] END) AS w(workspace_id)
        GROUP BY r.user_id, w.workspace_id; RETURN NULL; END $$""",
    """CREATE FUNCTION stewardship_owner_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO stewardship_ownercountdelta (user_id, workspace_id, memories, held, newest)
            SELECT r.user_id, w.workspace_id, -1 * count(*) FILTER (WHERE r.deleted_at IS NULL AND r.valid_to IS NULL), -1 * count(*), NULL::timestamptz
        FROM (SELECT OLD.*) r CROSS JOIN LATERAL unnest(CASE WHEN cardinality(r.visible_in) > 0 THEN r.visible_in ELSE ARRAY[NULL]::int[] END) AS w(workspace_id)
        GROUP BY r.user_id, w.workspace_id UNION ALL SELECT r.user_id, w.workspace_id, 1 * count(*) FILTER (WHERE r.deleted_at IS NULL AND r.valid_to IS NULL), 1 * count(*), max(r.updated_at)
        FROM (SELECT NEW.*) r CROSS JOIN LATERAL unnest(CASE WHEN cardinality(r.visible_in) > 0 THEN r.visible_in ELSE ARRAY[NULL]::int[] END) AS w(workspace_id)
        GROUP BY r.user_id, w.workspace_id; RETURN NULL; END $$""",
    """CREATE TRIGGER stewardship_owner_counts_added AFTER INSERT ON memory_memory
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION stewardship_owner_counts_added()""",
    """CREATE TRIGGER stewardship_owner_counts_removed AFTER DELETE ON memory_memory
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION stewardship_owner_counts_removed()""",
    """CREATE TRIGGER stewardship_owner_counts_changed AFTER UPDATE ON memory_memory
            FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.valid_to IS DISTINCT FROM NEW.valid_to OR OLD.visible_in IS DISTINCT FROM NEW.visible_in OR OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION stewardship_owner_counts_changed()""",
]

UNINSTALL = [
    """DROP TRIGGER IF EXISTS stewardship_owner_counts_added ON memory_memory""",
    """DROP TRIGGER IF EXISTS stewardship_owner_counts_removed ON memory_memory""",
    """DROP TRIGGER IF EXISTS stewardship_owner_counts_changed ON memory_memory""",
    """DROP FUNCTION IF EXISTS stewardship_owner_counts_added()""",
    """DROP FUNCTION IF EXISTS stewardship_owner_counts_removed()""",
    """DROP FUNCTION IF EXISTS stewardship_owner_counts_changed()""",
]

RECOUNT = [
    """SELECT pg_advisory_xact_lock(hashtext('stewardship_owner_counts_fold'))""",
    """LOCK TABLE memory_memory IN SHARE MODE""",
    """INSERT INTO stewardship_ownercount (user_id, workspace_id, memories, held, newest) SELECT r.user_id, w.workspace_id, 1 * count(*) FILTER (WHERE r.deleted_at IS NULL AND r.valid_to IS NULL), 1 * count(*), max(r.updated_at)
        FROM memory_memory r CROSS JOIN LATERAL unnest(CASE WHEN cardinality(r.visible_in) > 0 THEN r.visible_in ELSE ARRAY[NULL]::int[] END) AS w(workspace_id)
        GROUP BY r.user_id, w.workspace_id""",
]

NAME = "stewardship: fold the owners' counts"


def count(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in RECOUNT:
            cursor.execute(statement)


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={
            "func": "stewardship.tasks.owner_counts_fold",
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
        ('stewardship', '0004_counts_schedule'),
        ('memory', '0020_memory_plural'),
        ('django_q', '0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more'),
    ]

    operations = [
        migrations.CreateModel(
            name='OwnerCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('user_id', models.CharField(max_length=200)),
                ('workspace_id', models.IntegerField(blank=True, null=True)),
                ('memories', models.BigIntegerField()),
                ('held', models.BigIntegerField()),
                ('newest', models.DateTimeField(help_text='the last write or change of state of a memory counted in', null=True)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('user_id', 'workspace_id'), name='ownercount_key', nulls_distinct=False)],
            },
        ),
        migrations.CreateModel(
            name='OwnerCountDelta',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('user_id', models.CharField(max_length=200)),
                ('workspace_id', models.IntegerField(blank=True, null=True)),
                ('memories', models.BigIntegerField()),
                ('held', models.BigIntegerField()),
                ('newest', models.DateTimeField(null=True)),
            ],
            options={
                'indexes': [models.Index(fields=['user_id'], name='ownercountdelta_owner')],
            },
        ),
        migrations.RunSQL(INSTALL, UNINSTALL),
        migrations.RunPython(count, migrations.RunPython.noop),
        migrations.RunPython(schedule, unschedule),
    ]

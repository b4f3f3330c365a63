"""BM25's corpus statistics kept as memories change (memory.search.corpus): the tables, the
triggers on memory_memory, a first count, and the worker's fold every minute."""

import django.contrib.postgres.fields
from django.db import migrations, models
from django.utils import timezone

from memory.search.corpus import MEMORIES, corpus_recount, install_sql, uninstall_sql

NAME = "memory: fold search statistics"


def count(apps, schema_editor):
    corpus_recount(MEMORIES)


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
        migrations.RunSQL(install_sql(MEMORIES), uninstall_sql(MEMORIES)),
        migrations.RunPython(count, migrations.RunPython.noop),
        migrations.RunPython(schedule, unschedule),
    ]

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models


class Migration(migrations.Migration):
    """What was said just before a memory, matched by recall at a lower weight; the event time an
    ingest run came with, to tell a conversation's sessions apart."""

    dependencies = [
        ("memory", "0008_memory_run_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="ingestrun",
            name="occurred_at",
            field=models.DateTimeField(blank=True, help_text="the event time the message came with", null=True),
        ),
        migrations.AddIndex(
            model_name="ingestrun",
            index=models.Index(fields=["user_id", "rbac_scope", "-started_at"], name="ingestrun_owner_recent"),
        ),
        migrations.AddField(
            model_name="memory",
            name="context",
            field=models.TextField(blank=True, default="", help_text="what was said just before, for recall"),
        ),
        migrations.AddField(
            model_name="memory",
            name="context_vector",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.contrib.postgres.search.SearchVector("context", config="english"),
                output_field=django.contrib.postgres.search.SearchVectorField(),
            ),
        ),
        migrations.AddIndex(
            model_name="memory",
            index=django.contrib.postgres.indexes.GinIndex(fields=["context_vector"], name="memory_context_vector_gin"),
        ),
    ]

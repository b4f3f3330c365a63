"""A stored message's enrichment is marked due on its run until the worker has done it, so the
stranded-work sweep (memory.services.requeue) queues it again when its task never reached the
queue (Redis away). Rows from before stay unmarked. The partial index, built without locking the
table, finds the few runs marked."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("memory", "0013_corpus_statistics"),
    ]

    operations = [
        migrations.AddField(
            model_name="ingestrun",
            name="enrichment_due_at",
            field=models.DateTimeField(
                blank=True,
                help_text="its memories await enrichment since then (last queued); cleared once enriched",
                null=True,
            ),
        ),
        AddIndexConcurrently(
            model_name="ingestrun",
            index=models.Index(
                condition=models.Q(("enrichment_due_at__isnull", False)),
                fields=["enrichment_due_at"],
                name="ingestrun_enrichment_due",
            ),
        ),
    ]

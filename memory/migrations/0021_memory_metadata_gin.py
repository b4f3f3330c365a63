"""A GIN index on a memory's metadata (jsonb_path_ops): a search or list filtered on a metadata
key's value (memory.search.filters, ``metadata @> {...}``) reads the matching rows, not every
row of the owner."""

import django.contrib.postgres.indexes
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0020_memory_plural"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="memory",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["metadata"], name="memory_metadata_gin", opclasses=["jsonb_path_ops"]
            ),
        ),
    ]

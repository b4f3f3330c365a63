"""Every instant Python reads back is a storable event time: 0001-01-01T00:00:00Z to
9999-12-31T23:59:59.999999Z (it was 0001-01-02 to 9999-12-30). Widening refuses no stored row."""

import datetime

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0016_erasure_ledger"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="memory", name="memory_valid_from_readable"),
        migrations.AddConstraint(
            model_name="memory",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("valid_from__gte", datetime.datetime(1, 1, 1, 0, 0, tzinfo=datetime.UTC)),
                    ("valid_from__lte", datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=datetime.UTC)),
                ),
                name="memory_valid_from_readable",
            ),
        ),
    ]

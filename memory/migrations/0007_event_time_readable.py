"""Every stored event time reads back in any time zone.

An event time outside 0001-01-02 … 9999-12-30 (UTC) was accepted before and stored as a time
Python cannot load, which broke every read of its workspace. Such a row gets its write time
as event time, with a history row keeping the old value as PostgreSQL printed it; then the
constraint keeps any other from being stored.
"""

import datetime

from django.conf import settings
from django.db import migrations, models

REPAIR = """
WITH unreadable AS (
    UPDATE memory_memory AS m SET valid_from = m.created_at
    FROM (
        SELECT id, valid_from::text AS was FROM memory_memory
        WHERE valid_from < '0001-01-02T00:00:00Z' OR valid_from > '9999-12-30T00:00:00Z'
    ) AS old
    WHERE m.id = old.id
    RETURNING m.id, m.content, old.was
)
INSERT INTO memory_memoryhistory (memory_id, action, old_content, new_content, details, reason, created_at)
SELECT id, 'CORRECT', content, content, jsonb_build_object('old_valid_from', was),
       'event time out of the readable range: replaced by the write time', now()
FROM unreadable
"""

class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0006_memory_access"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunSQL(REPAIR, migrations.RunSQL.noop),
        migrations.AddConstraint(
            model_name="memory",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("valid_from__gte", datetime.datetime(1, 1, 2, 0, 0, tzinfo=datetime.UTC)),
                    ("valid_from__lte", datetime.datetime(9999, 12, 30, 0, 0, tzinfo=datetime.UTC)),
                ),
                name="memory_valid_from_readable",
            ),
        ),
    ]

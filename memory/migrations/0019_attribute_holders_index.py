"""An index of the memories whose facets hold an attribute, by owner and event time: the attribute
question's read (memory.search.attributes) takes an owner's newest holders from it instead of
reading every memory of the owner (20 ms for an owner of 10,000). Partial: only holders are in it.
The schema the release before reads is unchanged."""

from django.db import migrations

CREATE = """CREATE INDEX IF NOT EXISTS memory_attribute_holders ON memory_memory (user_id, valid_from DESC)
    WHERE jsonb_typeof(facets -> 'attribute') = 'array'"""
DROP = "DROP INDEX IF EXISTS memory_attribute_holders"


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0018_health_type"),
    ]

    # PostgreSQL refuses to index a table with foreign-key checks still pending in the transaction
    # (a migration run inside a transaction that wrote a memory): they are checked first.
    operations = [migrations.RunSQL(["SET CONSTRAINTS ALL IMMEDIATE", CREATE], DROP)]

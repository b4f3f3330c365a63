"""A memory's vector is read by every search, and until now it was kept out of line.

A row holds its text, two text-search vectors and a 384-d vector (1,540 bytes): about 2.6 kB,
past PostgreSQL's 2 kB threshold, so the vector went to the TOAST table and each candidate a
search scores cost an index lookup there (an owner's exact scan of 418 memories read 2,575
buffers; 207 with the vectors in the row). Rows now stay whole up to 4,080 bytes (two to a page);
a longer one still moves its largest values out, the text first.

Only a storage parameter changes: no lock that stops reads or writes, no rewrite. Rows written
before keep their vectors where they are until rewritten (``VACUUM FULL memory_memory`` in a
maintenance window; docs/deployment.md)."""

from django.db import migrations

TARGET = 4080


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0014_enrichment_due"),
    ]

    operations = [
        migrations.RunSQL(
            f"ALTER TABLE memory_memory SET (toast_tuple_target = {TARGET})",
            reverse_sql="ALTER TABLE memory_memory RESET (toast_tuple_target)",
        ),
    ]

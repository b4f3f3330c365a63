"""A chunk's vector stays in its row, as a memory's does (memory 0015): rows up to 4,080 bytes
are kept whole, a longer chunk moves its text out first."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0003_corpus_statistics"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE documents_chunk SET (toast_tuple_target = 4080)",
            reverse_sql="ALTER TABLE documents_chunk RESET (toast_tuple_target)",
        ),
    ]

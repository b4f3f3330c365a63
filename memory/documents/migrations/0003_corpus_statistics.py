"""BM25's corpus statistics for document chunks, kept as chunks change (memory.search.corpus):
the triggers on documents_chunk and a first count. The tables and the fold are memory's."""

from django.db import migrations

from memory.search.corpus import CHUNKS, corpus_recount, install_sql, uninstall_sql


def count(apps, schema_editor):
    corpus_recount(CHUNKS)


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0002_resume_schedule"),
        ("memory", "0013_corpus_statistics"),
    ]
    operations = [
        migrations.RunSQL(install_sql(CHUNKS), uninstall_sql(CHUNKS)),
        migrations.RunPython(count, migrations.RunPython.noop),
    ]

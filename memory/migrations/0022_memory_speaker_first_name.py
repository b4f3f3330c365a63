"""An index of the memories a speaker said, by the speaker's first name (lowercased, without a
title) and owner: whether a word a question says names a speaker of the memories it searches
(memory.search.speakers) is one index probe, not a read of the rows holding the word (3–5 ms a
capitalised word for an owner of 10,000). Partial: only memories with a speaker are in it. The
expression is the one ``speakers_named`` compares with (``FIRST_NAME`` there), letter for letter,
or the planner cannot use the index; ``test_speakers.py`` checks the plan. The schema the release
before reads is unchanged."""

from django.db import migrations

CREATE = r"""CREATE INDEX IF NOT EXISTS memory_speaker_first_name ON memory_memory (
    (split_part(lower(regexp_replace(facets ->> 'speaker', '^\s*(dr|mr|mrs|ms)\.\s*', '', 'i')), ' ', 1)), user_id
) WHERE facets ? 'speaker'"""
DROP = "DROP INDEX IF EXISTS memory_speaker_first_name"


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0021_memory_metadata_gin"),
    ]

    # PostgreSQL refuses to index a table with foreign-key checks still pending in the transaction
    # (a migration run inside a transaction that wrote a memory): they are checked first.
    operations = [migrations.RunSQL(["SET CONSTRAINTS ALL IMMEDIATE", CREATE], DROP)]

"""Switching the installation to another embedding model while it serves (``manage.py reembed``).

The stages, in the order a run goes through them:

- ``target``: the new provider, model and dimension, checked, and probed with one text before
  anything is written.
- ``jobs``: the job row (``ReembedJob``) and the lock that lets one run work at a time; a run
  killed outright lets go of the lock with its connection.
- ``schema``: the run-time DDL. Beside each ``embedding`` column (memories, entities, document
  chunks) a column ``embedding_next vector(N)``; a trigger empties it when the text it was
  embedded from changes; its HNSW index is built before the switch.
- ``fill``: rows whose next vector is missing, embedded with the target model, a batch per
  transaction. Searches and writes go on against ``embedding`` meanwhile; rows written
  meanwhile are missing too, and later passes catch them up. Running again resumes.
- ``switch``: one short transaction: writes wait while the last missing rows are caught up,
  then the old column is dropped and the next one takes its name and its index's name, and the
  installation's embedding space is recorded as the target.

Why a column in the same table, and not a table of its own: the vectors have to end up in the
rows searches read. Copied there from a side table inside the switch, every row is rewritten
and the HNSW index built again while the tables are locked (58 s for 136,000 memories on 2
cores); written into a column beside the old one as they are embedded, the switch only renames
(0.3 s for the same table, most of it the NOT NULL check, which is deferred past the lock).
"""

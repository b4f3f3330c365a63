"""Import a mem0 OSS store (``manage.py import_mem0``): every memory it holds or held, with its
ids, metadata, times and history, into one workspace.

The stages, in the order data flows: ``store`` reads the store through mem0's own library (its
config model, its vector store classes, its history database), so every vector store mem0
supports is read the same way; ``plan`` turns each mem0 memory into what is written here (owner,
agent, metadata, and its history as steps: the ADD, each UPDATE, the DELETE); ``write`` writes one
memory and its steps in one transaction, through the functions every write path uses;
``conductor`` runs them: skips what an earlier run imported, embeds in batches, reports."""

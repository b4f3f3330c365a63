"""Writes in the memory domain, one module per concern: ``add`` (the one way memories are added,
immediate or buffered), ``revisions`` (how a stored memory changes: rewritten with history or
superseded), ``corrections`` (update, forget, restore by id), ``erase`` (everything stored about
one owner, found by ``erase_plan``, verified by ``erase_check``), ``workspaces`` and
``embedding_space``."""

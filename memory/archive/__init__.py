"""Portable archives of memories and documents (``manage.py export`` / ``manage.py import``): one
JSON-lines file per kind of row and a ``manifest.json`` holding each file's row count and
sha256, the embedding space the vectors come from and what was selected. Workspaces, authors,
concepts and categories are named, never numbered, so an archive loads into another installation.

``files`` is the format, ``export`` writes an archive, ``verify`` checks one before anything
is written, ``targets`` maps its names onto this installation, ``load`` writes its rows (the
memories and entities), ``links`` what hangs on memories, ``documents`` the documents, their
chunks and the links memory → chunk, ``vectors`` the vectors and their indexes."""

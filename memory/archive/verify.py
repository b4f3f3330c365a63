"""Before an import writes anything: every file whole and as the manifest lists it, and the
archive's vectors comparable with this installation's (or to be embedded again)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from memory.archive.files import ArchiveError, Manifest, file_check, manifest_read
from memory.embedding_space import embedding_space_check


def archive_verify(folder: Path) -> Manifest:
    """The manifest, once every file's sha256 and row count match it."""
    manifest = manifest_read(folder)
    for entry in manifest.files.values():
        file_check(folder, entry)
    return manifest


def embedding_check(manifest: Manifest, *, reembed: bool) -> None:
    """Vectors of another model or dimension are not comparable with this installation's."""
    embedding_space_check()  # this process's model is the installation's (not so after a re-embed switched it)
    source = manifest.embedding
    here = (settings.HELIX_EMBEDDING_MODEL, settings.HELIX_EMBEDDING_DIM)
    if reembed or (source["model"], source["dimension"]) == here:
        return
    raise ArchiveError(
        f"The archive's vectors come from {source['provider']}:{source['model']} ({source['dimension']}-d); this "
        f"installation embeds with {settings.HELIX_EMBEDDINGS}:{here[0]} ({here[1]}-d), and vectors of different "
        "models are not comparable. Nothing was imported; run again with --reembed to embed every memory, entity "
        "and document chunk with this installation's model.",
        code="embedding_mismatch",
    )

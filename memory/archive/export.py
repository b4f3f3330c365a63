"""Write an archive: the selected memories and documents and every row that hangs on them, all
read from one snapshot of the database and streamed kind by kind (a chunked cursor each), never
a whole table in memory."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from memory.archive.files import (
    KINDS,
    ArchiveError,
    JsonlWriter,
    Manifest,
    manifest_write,
    rows_at_once,
    staging_abandon,
    staging_begin,
    staging_finish,
    value_portable,
)
from memory.categories.models import Filing
from memory.documents.models import Chunk, Document, DocumentHistory, ExtractedFrom
from memory.embedding_space import embedding_space_get
from memory.models import Edge, Entity, InstanceOf, Memory, MemoryAccess, MemoryHistory, Mention
from rbac.models import Federation, FederationMember, Workspace
from rbac.policy import visible_in_any

Progress = Callable[[str, int], None]
_CHUNK = 2000
_REPORT_EVERY = 500

# Archive key of each column, per kind: the ORM path read → the key written.
_MEMORY_COLUMNS = {
    "id": "id",
    "content": "content",
    "context": "context",
    "metadata": "metadata",
    "facets": "facets",
    "context_tags": "context_tags",
    "memory_type": "memory_type",
    "importance": "importance",
    "certainty": "certainty",
    "source": "source",
    "content_key": "content_key",
    "user_id": "user_id",
    "author__username": "author",
    "agent_id": "agent_id",
    "run_id": "run_id",
    "rbac_scope": "rbac_scope",
    "visible_in": "visible_in",
    "created_at": "created_at",
    "updated_at": "updated_at",
    "valid_from": "valid_from",
    "valid_to": "valid_to",
    "expires_at": "expires_at",
    "deleted_at": "deleted_at",
    "immutable": "immutable",
    "embedding": "embedding",
}
_COLUMNS: dict[str, dict[str, str]] = {
    "entities": {
        "id": "id",
        "name": "name",
        "normalized_name": "normalized_name",
        "entity_type": "entity_type",
        "rbac_scope": "rbac_scope",
        "created_at": "created_at",
        "embedding": "embedding",
    },
    "mentions": {"memory_id": "memory", "entity_id": "entity"},
    "concepts": {"memory_id": "memory", "concept__name": "concept", "confidence": "confidence"},
    "filings": {"memory_id": "memory", "category__path": "path", "method": "method", "created_at": "created_at"},
    "history": {
        "memory_id": "memory",
        "action": "action",
        "old_content": "old_content",
        "new_content": "new_content",
        "details": "details",
        "actor__username": "actor",
        "reason": "reason",
        "run_id": "run_id",
        "created_at": "created_at",
    },
    "access": {"memory_id": "memory", "access_count": "access_count", "last_accessed_at": "last_accessed_at"},
    "edges": {
        "source_id": "source",
        "target_id": "target",
        "edge_type": "edge_type",
        "confidence": "confidence",
        "reason": "reason",
        "created_by__username": "created_by",
        "run_id": "run_id",
        "created_at": "created_at",
        "expired_at": "expired_at",
    },
    "documents": {
        "id": "id",
        "title": "title",
        "source_url": "source_url",
        "content_type": "content_type",
        "metadata": "metadata",
        "text": "text",
        "source_file": "source_file",
        "sha256": "sha256",
        "chars": "chars",
        "version": "version",
        "page_starts": "page_starts",
        "user_id": "user_id",
        "author__username": "author",
        "agent_id": "agent_id",
        "rbac_scope": "rbac_scope",
        "workspace_id": "workspace",
        "visible_in": "visible_in",
        "status": "status",
        "chunks_total": "chunks_total",
        "chunks_done": "chunks_done",
        "chunk_chars": "chunk_chars",
        "chunk_overlap": "chunk_overlap",
        "extract": "extract",
        "chunks_extracted": "chunks_extracted",
        "memories_forgotten": "memories_forgotten",
        "error": "error",
        "created_at": "created_at",
        "updated_at": "updated_at",
        "deleted_at": "deleted_at",
    },
    "document_history": {
        "document_id": "document",
        "action": "action",
        "version": "version",
        "title": "title",
        "sha256": "sha256",
        "text": "text",
        "actor__username": "actor",
        "reason": "reason",
        "created_at": "created_at",
    },
    # A chunk's owner and workspaces are its document's (copied onto it for recall): an import
    # copies them from the document again.
    "chunks": {
        "id": "id",
        "document_id": "document",
        "version": "version",
        "position": "position",
        "text": "text",
        "heading": "heading",
        "char_start": "char_start",
        "char_end": "char_end",
        "page": "page",
        "embedding": "embedding",
        "created_at": "created_at",
        "extracted_at": "extracted_at",
        "superseded_at": "superseded_at",
        "deleted_at": "deleted_at",
    },
    "extracted_from": {"memory_id": "memory", "chunk_id": "chunk", "created": "created"},
}
# The model of each kind whose rows hang on a memory, a document or a chunk.
_MODELS: dict[str, Any] = {
    "mentions": Mention,
    "concepts": InstanceOf,
    "filings": Filing,
    "history": MemoryHistory,
    "access": MemoryAccess,
    "edges": Edge,
    "document_history": DocumentHistory,
    "chunks": Chunk,
    "extracted_from": ExtractedFrom,
}


@dataclass(frozen=True)
class Selection:
    """What to export: memories and documents visible in any of ``workspaces``, of ``owner``, or
    everything."""

    workspaces: tuple[str, ...] = ()
    owner: str | None = None
    everything: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"workspaces": list(self.workspaces), "owner": self.owner, "all": self.everything}


@dataclass
class ExportReport:
    out: Path
    rows: dict[str, int]
    seconds: float


def archive_export(*, out: Path, selection: Selection, progress: Progress = lambda kind, n: None) -> ExportReport:
    started = time.perf_counter()
    workspace_ids = _selection_check(selection)
    staging = staging_begin(out)
    try:
        with _snapshot():
            manifest = _export_into(staging, selection, workspace_ids, progress)
        manifest_write(staging, manifest)
        staging_finish(staging, out)
    except OSError as exc:
        staging_abandon(staging, out)
        raise ArchiveError(f"Could not write {out}: {exc.strerror or exc}. Nothing was exported.") from None
    except BaseException:
        staging_abandon(staging, out)
        raise
    rows = {kind: entry.rows for kind, entry in manifest.files.items()}
    return ExportReport(out=out, rows=rows, seconds=time.perf_counter() - started)


def _selection_check(selection: Selection) -> list[int]:
    """The ids of the selected workspaces; a selection that is empty, contradictory or names an
    unknown workspace is refused."""
    if selection.everything and (selection.workspaces or selection.owner):
        raise ArchiveError("--all exports everything: leave out --workspace and --owner.", field="all")
    if not (selection.everything or selection.workspaces or selection.owner):
        raise ArchiveError("Choose what to export: --workspace SLUG, --owner USER_ID or --all.", field="selection")
    if selection.owner is not None and not selection.owner.strip():
        raise ArchiveError("--owner must not be empty.", field="owner")
    found = dict(Workspace.objects.filter(slug__in=selection.workspaces).values_list("slug", "id"))
    missing = [slug for slug in selection.workspaces if slug not in found]
    if missing:
        raise ArchiveError(f"No workspace {', '.join(missing)} in this installation.", field="workspace")
    return list(found.values())


@contextmanager
def _snapshot() -> Iterator[None]:
    """Every kind read from the same snapshot, so edges and history match the memories exactly.
    Inside a transaction already open, that transaction's snapshot rules."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


@dataclass(frozen=True)
class Selected:
    memories: QuerySet[Memory]
    documents: QuerySet[Document]
    every: bool


def _selected(selection: Selection, workspace_ids: list[int]) -> Selected:
    """Documents are selected as memories are: by the workspaces that see them and their owner."""

    def narrowed(rows: QuerySet[Any]) -> QuerySet[Any]:
        if workspace_ids:
            rows = rows.filter(visible_in_any(workspace_ids))
        if selection.owner:
            rows = rows.filter(user_id=selection.owner)
        return rows

    return Selected(narrowed(Memory.objects.all()), narrowed(Document.objects.all()), every=selection.everything)


def _export_into(folder: Path, selection: Selection, workspace_ids: list[int], progress: Progress) -> Manifest:
    selected = _selected(selection, workspace_ids)
    names = PortableNames()
    files = {}
    for kind in KINDS:
        writer = JsonlWriter(folder, kind)
        try:
            for row in _rows(kind, selected, names):
                writer.write(row)
                if writer.rows % _REPORT_EVERY == 0:
                    progress(kind, _REPORT_EVERY)
        finally:
            files[kind] = writer.close()
        progress(kind, writer.rows % _REPORT_EVERY)
    return Manifest(
        created_at=timezone.now().isoformat(),
        embedding=_embedding_space(),
        selection=selection.as_json(),
        workspaces=sorted(names.used),
        authors=sorted(names.authors),
        files=files,
    )


def _embedding_space() -> dict[str, Any]:
    space = embedding_space_get()
    if space is None:
        return {
            "provider": settings.HELIX_EMBEDDINGS,
            "model": settings.HELIX_EMBEDDING_MODEL,
            "dimension": settings.HELIX_EMBEDDING_DIM,
        }
    return {"provider": space.provider, "model": space.model, "dimension": space.dimension}


def _rows(kind: str, selected: Selected, names: PortableNames) -> Iterator[dict[str, Any]]:
    if kind == "memories":
        for row in _stream(kind, selected.memories, _MEMORY_COLUMNS):
            names.authors.add(row["author"])
            yield {**row, "write_domain": names.domain(row["rbac_scope"]), "visible_in": names.slugs(row["visible_in"])}
        return
    rows = _stream(kind, _related(kind, selected), _COLUMNS[kind])
    if kind == "entities":
        for row in rows:
            yield {**row, "write_domain": names.domain(row["rbac_scope"])}
        return
    if kind == "documents":
        for row in rows:
            names.authors.add(row["author"])
            domain, visible_in = names.domain(row["rbac_scope"]), names.slugs(row["visible_in"])
            yield {**row, "write_domain": domain, "visible_in": visible_in, "workspace": names.slug(row["workspace"])}
        return
    yield from rows


def _related(kind: str, selected: Selected) -> QuerySet[Any]:
    """The rows of ``kind`` that hang on the selected memories and documents (edges: between two
    selected memories; EXTRACTED_FROM: from a selected memory to a chunk of a selected document)."""
    memories, documents = selected.memories.values("id"), selected.documents.values("id")
    if kind == "entities":
        mentions = Mention.objects.all() if selected.every else Mention.objects.filter(memory__in=memories)
        return Entity.objects.filter(id__in=mentions.values("entity_id"))
    if kind == "documents":
        return selected.documents
    rows = _MODELS[kind].objects.all()
    if selected.every:
        return rows
    if kind == "edges":
        return rows.filter(source__in=memories, target__in=memories)
    if kind in ("document_history", "chunks"):
        return rows.filter(document__in=documents)
    if kind == "extracted_from":
        return rows.filter(memory__in=memories, chunk__document__in=documents)
    return rows.filter(memory__in=memories)


def _stream(kind: str, rows: QuerySet[Any], columns: dict[str, str]) -> Iterator[dict[str, Any]]:
    for row in rows.order_by("pk").values(*columns).iterator(chunk_size=rows_at_once(kind, _CHUNK)):
        yield {columns[path]: value_portable(value) for path, value in row.items()}


class PortableNames:
    """Write domains and workspaces by name: ids differ between installations, slugs do not."""

    def __init__(self) -> None:
        self._slugs = dict(Workspace.objects.values_list("id", "slug"))
        self._domains: dict[str, dict[str, Any]] = {}
        self.used: set[str] = set()
        self.authors: set[str] = set()

    def slugs(self, workspace_ids: list[int]) -> list[str]:
        """A deleted workspace shows nothing any more: it is left out."""
        slugs = sorted(self._slugs[pk] for pk in workspace_ids if pk in self._slugs)
        self.used.update(slugs)
        return slugs

    def slug(self, workspace_id: int | None) -> str | None:
        """The workspace a document was written to; None once it is deleted."""
        slugs = self.slugs([] if workspace_id is None else [workspace_id])
        return slugs[0] if slugs else None

    def domain(self, scope: str) -> dict[str, Any]:
        """``{"kind": default|workspace|federation, "workspaces": [slugs], "federation"?: slug}``;
        an import resolves the first workspace's write domain in the installation it loads into."""
        if scope not in self._domains:
            self._domains[scope] = self._describe(scope)
        described = self._domains[scope]
        self.used.update(described["workspaces"])
        return described

    def _describe(self, scope: str) -> dict[str, Any]:
        prefix, _, number = scope.rpartition(":")
        pk = int(number) if number.isascii() and number.isdecimal() else None
        if scope == Workspace.DEFAULT:
            return {"kind": "default", "workspaces": [Workspace.DEFAULT]}
        if prefix == "rbac:group" and pk in self._slugs:
            return {"kind": "workspace", "workspaces": [self._slugs[pk]]}
        federation = Federation.objects.filter(pk=pk).first() if prefix == "rbac:dedup" and pk else None
        if federation is None:
            raise ArchiveError(f"The write domain {scope} names no workspace or federation of this installation.")
        members = FederationMember.objects.filter(federation=federation)
        current = sorted(members.current().values_list("workspace__slug", flat=True))
        ever = sorted(set(members.values_list("workspace__slug", flat=True)))
        return {"kind": "federation", "federation": federation.slug, "workspaces": current or ever}

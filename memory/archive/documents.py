"""Documents as an import writes them, once the memories and their links are in: the documents
(keeping their ids), the versions they replaced and their forgets, their chunks (keeping their
ids and vectors, or embedded here as the write path embeds a chunk), and EXTRACTED_FROM, memory
→ chunk. Each kind's ``_<kind>_row`` reads a row of the archive, ``_<kind>`` writes a batch in
one transaction and answers (written, already here, left out).

A live document whose content, or whose title and source, a live document of the same owner in
the same write domain already has here is not stored a second time: it is left out, and so is
what hangs on it alone (its versions, its chunks and the links to them)."""

from __future__ import annotations

import base64
import binascii
import uuid
from typing import Any

from django.db import transaction
from django.db.models import Q

from memory.archive.files import ArchiveError, moment_or_none, moment_read
from memory.archive.links import Counts, LinkWriter, history_store
from memory.archive.targets import Targets
from memory.archive.vectors import embed_into, vector_read
from memory.documents.chunks import chunk_place
from memory.documents.models import Chunk, Document, DocumentHistory, DocumentStatus, ExtractedFrom


class DocumentWriter(LinkWriter):
    def __init__(self, targets: Targets, *, reembed: bool) -> None:
        super().__init__(targets)
        self.reembed = reembed

    # --- documents ----------------------------------------------------------------------------

    def _documents_row(self, row: dict[str, Any]) -> Document:
        domain = self.targets.domain(row["write_domain"])
        if row["status"] not in DocumentStatus.values:
            raise ArchiveError(f"status {row['status']!r} is none of {', '.join(DocumentStatus.values)}")
        return Document(
            id=uuid.UUID(row["id"]),
            title=row["title"],
            source_url=row["source_url"],
            content_type=row["content_type"],
            metadata=row["metadata"],
            text=row["text"],
            source_file=_file(row.get("source_file")),
            sha256=row["sha256"],
            chars=int(row["chars"]),
            version=int(row["version"]),
            page_starts=[int(start) for start in row["page_starts"]],
            user_id=row["user_id"],
            author_id=self.targets.author_id(row["author"]),
            agent_id=row["agent_id"],
            rbac_scope=domain.scope,
            workspace=None if row["workspace"] is None else self.targets.workspace(row["workspace"]),
            visible_in=self.targets.visible_in(domain, row["visible_in"]),
            status=row["status"],
            chunks_total=int(row["chunks_total"]),
            chunks_done=int(row["chunks_done"]),
            chunk_chars=int(row["chunk_chars"]),
            chunk_overlap=int(row["chunk_overlap"]),
            extract=_flag(row["extract"]),
            # An archive written before documents counted these has neither: 0, as they were.
            chunks_extracted=int(row.get("chunks_extracted", 0)),
            memories_forgotten=int(row.get("memories_forgotten", 0)),
            error=row["error"],
            created_at=moment_read(row["created_at"]),
            updated_at=moment_read(row["updated_at"]),
            deleted_at=moment_or_none(row["deleted_at"]),
        )

    def _documents(self, rows: list[Document]) -> Counts:
        present = set(Document.objects.filter(id__in=[d.id for d in rows]).values_list("id", flat=True))
        fresh = _without_equals([d for d in rows if d.id not in present])
        with transaction.atomic():
            Document.objects.bulk_create(fresh)
        return len(fresh), len(present), len(rows) - len(fresh) - len(present)

    # --- versions replaced, forgets -----------------------------------------------------------

    def _document_history_row(self, row: dict[str, Any]) -> tuple[DocumentHistory, str | None]:
        entry = DocumentHistory(
            document_id=uuid.UUID(row["document"]),
            action=row["action"],
            version=int(row["version"]),
            title=row["title"],
            sha256=row["sha256"],
            text=row["text"],
            reason=row["reason"],
            created_at=moment_read(row["created_at"]),
        )
        return entry, row["actor"]

    def _document_history(self, rows: list[tuple[DocumentHistory, str | None]]) -> Counts:
        actors = self.targets.user_ids({name for _, name in rows})
        with transaction.atomic():
            here = _documents_here({entry.document_id for entry, _ in rows})
            return history_store(
                DocumentHistory, rows, parent="document_id", here=here, actors=actors,
                same=("document_id", "action", "version", "created_at"),
            )  # fmt: skip

    # --- chunks -------------------------------------------------------------------------------

    def _chunks_row(self, row: dict[str, Any]) -> Chunk:
        return Chunk(
            id=uuid.UUID(row["id"]),
            document_id=uuid.UUID(row["document"]),
            version=int(row["version"]),
            position=int(row["position"]),
            text=row["text"],
            heading=row["heading"],
            char_start=int(row["char_start"]),
            char_end=int(row["char_end"]),
            page=None if row["page"] is None else int(row["page"]),
            embedding=None if self.reembed else vector_read(row["embedding"]),
            created_at=moment_read(row["created_at"]),
            extracted_at=moment_or_none(row["extracted_at"]),
            superseded_at=moment_or_none(row["superseded_at"]),
            deleted_at=moment_or_none(row["deleted_at"]),
        )

    def _chunks(self, rows: list[Chunk]) -> Counts:
        """A chunk takes its owner and workspaces from its document here, as the write path does."""
        present = _chunks_here(rows)
        documents = {
            pk: (title, owner, visible_in)
            for pk, title, owner, visible_in in Document.objects.filter(
                id__in={c.document_id for c in rows}
            ).values_list("id", "title", "user_id", "visible_in")
        }
        fresh = [c for c in rows if c.id not in present and c.document_id in documents]
        for chunk in fresh:
            _, chunk.user_id, chunk.visible_in = documents[chunk.document_id]
        if self.reembed and fresh:
            embed_into(fresh, [_embedded_text(documents[c.document_id][0], c) for c in fresh])
        with transaction.atomic():
            Chunk.objects.bulk_create(fresh)
        return len(fresh), len(present), len(rows) - len(fresh) - len(present)

    # --- EXTRACTED_FROM (memory → chunk) ------------------------------------------------------

    def _extracted_from_row(self, row: dict[str, Any]) -> ExtractedFrom:
        memory = uuid.UUID(row["memory"])
        return ExtractedFrom(
            memory_id=self.merged.get(memory, memory), chunk_id=uuid.UUID(row["chunk"]), created=_flag(row["created"])
        )

    def _extracted_from(self, rows: list[ExtractedFrom]) -> Counts:
        with transaction.atomic():
            memories = self._here({link.memory_id for link in rows})
            chunks = set(Chunk.objects.filter(id__in={link.chunk_id for link in rows}).values_list("id", flat=True))
            kept = [link for link in rows if link.memory_id in memories and link.chunk_id in chunks]
            existing = set(
                ExtractedFrom.objects.filter(chunk_id__in=chunks, memory_id__in=memories).values_list(
                    "memory_id", "chunk_id"
                )
            )
            fresh = []
            for link in kept:
                if (link.memory_id, link.chunk_id) not in existing:
                    existing.add((link.memory_id, link.chunk_id))
                    fresh.append(link)
            ExtractedFrom.objects.bulk_create(fresh, ignore_conflicts=True)
        return len(fresh), len(kept) - len(fresh), len(rows) - len(kept)


def _without_equals(documents: list[Document]) -> list[Document]:
    """``documents`` without the live ones equal to a live document here or earlier in the batch:
    the same content, or the same title and source, for the owner in the write domain."""
    live = [d for d in documents if d.deleted_at is None]
    if not live:
        return documents
    stored = (
        Document.objects.live()
        .filter(rbac_scope__in={d.rbac_scope for d in live}, user_id__in={d.user_id for d in live})
        .filter(Q(sha256__in={d.sha256 for d in live}) | Q(title__in={d.title for d in live}))
        .values_list("rbac_scope", "user_id", "sha256", "title", "source_url")
    )
    taken = {key for row in stored for key in _equal_keys(*row)}
    kept = []
    for d in documents:
        if d.deleted_at is None:
            keys = _equal_keys(d.rbac_scope, d.user_id, d.sha256, d.title, d.source_url)
            if keys & taken:
                continue
            taken |= keys
        kept.append(d)
    return kept


def _equal_keys(scope: str, owner: str, digest: str, title: str, source_url: str) -> set[tuple[str, ...]]:
    """What two live documents of an owner in a write domain may not share (the model's constraints)."""
    return {(scope, owner, digest), (scope, owner, title, source_url)}


def _documents_here(ids: set[uuid.UUID]) -> set[uuid.UUID]:
    return set(Document.objects.filter(id__in=ids).values_list("id", flat=True))


def _chunks_here(rows: list[Chunk]) -> set[uuid.UUID]:
    """The chunks of ``rows`` already here: by id, or by their place (a resume of their document
    here stored that place meanwhile)."""
    by_id = set(Chunk.objects.filter(id__in=[c.id for c in rows]).values_list("id", flat=True))
    places = set(
        Chunk.objects.filter(
            document_id__in={c.document_id for c in rows},
            version__in={c.version for c in rows},
            position__in={c.position for c in rows},
        ).values_list("document_id", "version", "position")
    )
    return by_id | {c.id for c in rows if (c.document_id, c.version, c.position) in places}


def _embedded_text(title: str, chunk: Chunk) -> str:
    """What memory.documents.services embeds a chunk as: where it sits (its document's title and
    its headings), then its text."""
    return f"{chunk_place(title, chunk.heading)}\n\n{chunk.text}"


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ArchiveError(f"{value!r} is not true or false")
    return value


def _file(encoded: Any) -> bytes | None:
    """A file not yet read when the archive was written (base64), for the worker to read here."""
    if encoded is None:
        return None
    try:
        return base64.b64decode(encoded, validate=True)
    except (TypeError, ValueError, binascii.Error):
        raise ArchiveError("a document's source_file is not base64") from None

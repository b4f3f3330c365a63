"""Reads of documents: the access gate, a document with its chunks, a page of documents, and the
citation of the chunks memories were extracted from."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db.models import F

from helixsite.errors import NotFound
from memory.documents.models import Chunk, Document, DocumentHistory, ExtractedFrom
from rbac.actors import Actor
from rbac.policy import Action, workspace_get


def document_get_for_actor(*, actor: Actor, document_id: Any) -> Document:
    """The access gate for one document: not visible and not existing are the same 404."""
    try:
        pk = uuid.UUID(str(document_id))
    except ValueError:
        raise NotFound("Document not found.", field="document_id") from None
    document = Document.objects.live().visible_to(actor).filter(pk=pk).select_related("author").first()
    if document is None:
        raise NotFound("Document not found.", field="document_id")
    return document


@dataclass
class DocumentDetail:
    document: Document
    chunks: list[Chunk]
    history: list[DocumentHistory]


def document_detail(*, actor: Actor, document_id: Any, limit: int = 100, offset: int = 0) -> DocumentDetail:
    """A document with a page of its current chunks, in order, and the versions it replaced."""
    document = document_get_for_actor(actor=actor, document_id=document_id)
    chunks = Chunk.objects.filter(document=document, version=document.version).defer("embedding")
    return DocumentDetail(
        document=document,
        chunks=list(chunks.order_by("position")[offset : offset + limit]),
        history=list(document.history.select_related("actor").defer("text")),
    )


def document_list(
    *,
    actor: Actor,
    user_id: str | None = None,
    group_id: str | None = None,
    status: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> list[Document]:
    """Newest first, only what the actor may see; ``group_id`` narrows to one readable workspace."""
    documents = Document.objects.live().visible_to(actor)
    if group_id not in (None, ""):
        workspace = workspace_get(actor=actor, ref=group_id, action=Action.READ)
        documents = documents.filter(visible_in__contains=[workspace.id])
    if user_id:
        documents = documents.filter(user_id=user_id)
    if status:
        documents = documents.filter(status=status)
    return list(
        documents.defer("text")
        .select_related("author", "workspace")
        .order_by("-created_at", "-id")[offset : offset + limit]
    )


def citation_of(chunk: Chunk, document: Document) -> dict[str, Any]:
    return {
        "document_id": str(document.id),
        "title": document.title,
        "chunk_index": chunk.position,
        "char_start": chunk.char_start,
        "char_end": chunk.char_end,
        "source_url": document.source_url,
        "heading": chunk.heading,
        "page": chunk.page,
        "version": chunk.version,
    }


def citations_for_memories(memory_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The chunk each memory was extracted from (a current one first, then the newest version;
    the earliest in its text, if several), as a citation; only chunks of documents not forgotten.
    The memories are visible already, and so their chunks: extraction writes a memory in its
    chunk's own write domain."""
    if not memory_ids:
        return {}
    links = (
        ExtractedFrom.objects.filter(memory_id__in=memory_ids, chunk__deleted_at__isnull=True)
        .select_related("chunk__document")
        .defer("chunk__embedding", "chunk__document__text")
        .order_by(F("chunk__superseded_at").asc(nulls_first=True), "-chunk__version", "chunk__position")
    )
    found: dict[str, dict[str, Any]] = {}
    for link in links:
        found.setdefault(str(link.memory_id), citation_of(link.chunk, link.chunk.document))
    return found


def chunk_vectors(chunk_ids: list[str]) -> dict[uuid.UUID, np.ndarray]:
    rows = Chunk.objects.filter(id__in=chunk_ids).values_list("id", "embedding")
    return {chunk_id: np.asarray(vector, dtype=np.float32) for chunk_id, vector in rows}

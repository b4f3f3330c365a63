"""The document tools: add_document, get_document, list_documents, forget_document."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers

from helixsite.agents.agent_ids import AgentIdField
from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from helixsite.errors import InvalidInput
from memory.documents import examples
from memory.documents.formats import FILE_TYPES, base64_decode, text_check
from memory.documents.models import Chunk, Document, DocumentHistory, DocumentStatus
from memory.documents.selectors import document_detail, document_list
from memory.documents.services import DocumentInput, document_accept, document_forget
from memory.ingest.request import metadata_check
from rbac.actors import Actor


class DocumentOut(serializers.Serializer):
    id = serializers.UUIDField()
    title = serializers.CharField()
    source_url = serializers.CharField(allow_blank=True)
    content_type = serializers.CharField(help_text="text/markdown (text sent as is), application/pdf or text/html")
    metadata = serializers.DictField()
    user_id = serializers.CharField()
    author = serializers.CharField()
    workspace = serializers.CharField(allow_null=True, help_text="the workspace it was written to")
    version = serializers.IntegerField(help_text="1, then one more for each new version")
    status = serializers.ChoiceField(
        choices=DocumentStatus.values,
        help_text=(
            "pending: accepted, the worker reads it (a file) and stores its chunks; partial: some stored "
            "(still running, or stopped with error); complete: every chunk stored and searchable; failed: "
            "stopped with error before its first chunk; refused: the worker could not read the file sent "
            "(error says why: no text layer, too large once read, streams inflating past the bound). A "
            "stopped document is resumed by the worker within about 10 minutes, or at once by adding it again"
        ),
    )
    chunks_total = serializers.IntegerField(help_text="known once its text is read (a file: by the worker)")
    chunks_done = serializers.IntegerField(help_text="chunks stored so far: the progress")
    error = serializers.CharField(allow_blank=True, help_text="why the last run stopped; add it again to continue")
    extract = serializers.BooleanField()
    chunks_extracted = serializers.IntegerField(help_text="with extract: chunks read for memories so far")
    memories_forgotten = serializers.IntegerField(
        help_text="memories extracted only from chunks of earlier versions that this version no longer has, "
        "and said nowhere else (another document, a conversation), forgotten as forget_memory does once "
        "this version was stored; 0 otherwise"
    )
    sha256 = serializers.CharField(help_text="of the text sent, or of the file sent")
    chars = serializers.IntegerField(help_text="length of the stored text, which chunk offsets point into")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class ChunkOut(serializers.Serializer):
    id = serializers.UUIDField()
    chunk_index = serializers.IntegerField()
    char_start = serializers.IntegerField()
    char_end = serializers.IntegerField(help_text="the chunk is the document's text[char_start:char_end]")
    heading = serializers.CharField(allow_blank=True, help_text="the headings it sits under, outermost first")
    page = serializers.IntegerField(allow_null=True, help_text="the page it starts on (PDF)")
    text = serializers.CharField()


def document_out(document: Document) -> dict[str, Any]:
    return {
        "id": str(document.id),
        "title": document.title,
        "source_url": document.source_url,
        "content_type": document.content_type,
        "metadata": document.metadata,
        "user_id": document.user_id,
        "author": document.author.username,
        "workspace": document.workspace.slug if document.workspace else None,
        "version": document.version,
        "status": document.status,
        "chunks_total": document.chunks_total,
        "chunks_done": document.chunks_done,
        "error": document.error,
        "extract": document.extract,
        "chunks_extracted": document.chunks_extracted,
        "memories_forgotten": document.memories_forgotten,
        "sha256": document.sha256,
        "chars": document.chars,
        "created_at": document.created_at.isoformat(),
        "updated_at": document.updated_at.isoformat(),
    }


def chunk_out(chunk: Chunk) -> dict[str, Any]:
    return {
        "id": str(chunk.id),
        "chunk_index": chunk.position,
        "char_start": chunk.char_start,
        "char_end": chunk.char_end,
        "heading": chunk.heading,
        "page": chunk.page,
        "text": chunk.text,
    }


def history_out(entry: DocumentHistory) -> dict[str, Any]:
    return {
        "action": entry.action,
        "version": entry.version,
        "title": entry.title,
        "sha256": entry.sha256,
        "actor": entry.actor.username if entry.actor else None,
        "reason": entry.reason,
        "created_at": entry.created_at.isoformat(),
    }


class AddDocumentApi(ToolApi):
    """Store a document (Markdown or plain text, or a PDF or HTML file as base64), cut into chunks
    by its structure, each embedded and indexed for search_memory(include_chunks=true) with a
    citation. The call answers at once, once the document is read and accepted (status pending,
    chunks_total known); the worker stores its chunks, and get_document shows the progress
    (chunks_done, chunks_extracted) until status is complete. The same content again changes
    nothing (or finishes an interrupted add); a new content under the same title and source, or
    for document_id, is a new version. A new version keeps the memories extracted from chunks
    whose text it still has; those extracted only from chunks it no longer has, and said nowhere
    else, are forgotten once it is stored (get_document's memories_forgotten)."""

    tool = "add_document"
    kind = ToolKind.WRITE
    example = examples.ADD_DOCUMENT

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200, help_text="whose document this is (the subject)")
        title = serializers.CharField(max_length=300)
        text = serializers.CharField(
            required=False, trim_whitespace=False, help_text="the document as plain text or Markdown"
        )
        content_base64 = serializers.CharField(
            required=False, trim_whitespace=False, help_text="a file instead of text, with content_type"
        )
        content_type = serializers.ChoiceField(choices=FILE_TYPES, required=False, help_text="of content_base64")
        source_url = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")
        metadata = serializers.DictField(required=False, help_text="returned with the document and its chunks")
        group_id = serializers.CharField(
            required=False, max_length=100, help_text="workspace slug or id; required when you can write to several"
        )
        document_id = serializers.UUIDField(required=False, help_text="a document to give a new version")
        agent_id = AgentIdField(required=False, allow_blank=True, default="", help_text="which instance of you adds it")
        extract = serializers.BooleanField(
            default=False, help_text="also extract memories from each chunk, each citing its chunk"
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            encoded = attrs.pop("content_base64", None)
            if (attrs.get("text") is None) == (encoded is None):
                raise InvalidInput("Give text, or content_base64 with content_type.", code="text_or_file", field="text")
            if encoded is None:
                if attrs.get("content_type"):
                    raise InvalidInput("content_type describes content_base64.", field="content_type")
                attrs["text"] = text_check(attrs["text"])
            elif not attrs.get("content_type"):
                raise InvalidInput(
                    "content_type is required with content_base64.", code="required", field="content_type"
                )
            else:
                attrs["data"] = base64_decode(encoded)
            attrs["metadata"] = metadata_check(attrs.get("metadata"))
            return attrs

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        outcome = serializers.ChoiceField(
            choices=["created", "replaced", "resumed", "unchanged"],
            help_text="unchanged: this content was stored already; replaced: a new version",
        )
        document = DocumentOut(help_text="as accepted: get_document follows its progress")

    @classmethod
    def run(cls, *, actor: User, group_id: str | None = None, document_id: Any = None, **params: Any) -> dict[str, Any]:
        added = document_accept(actor=actor, given=DocumentInput(**params), group_id=group_id, document_id=document_id)
        return {"ok": True, "outcome": added.outcome, "document": document_out(added.document)}


class GetDocumentApi(ToolApi):
    """One document by id: its metadata, status and progress, a page of its current chunks with
    their offsets in its text, and the versions it replaced."""

    tool = "get_document"
    kind = ToolKind.READ
    example = examples.GET_DOCUMENT

    class InputSerializer(ActorInput):
        document_id = serializers.UUIDField()
        limit = serializers.IntegerField(min_value=1, max_value=500, default=100, help_text="chunks on this page")
        cursor = serializers.IntegerField(
            min_value=0, max_value=10**9, default=0, help_text="next_cursor of the previous page"
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        document = DocumentOut()
        chunks = ChunkOut(many=True)
        next_cursor = serializers.IntegerField(allow_null=True, help_text="null on the last page of chunks")
        history = serializers.ListField(child=serializers.DictField(), help_text="versions replaced, forgets")

    @classmethod
    def run(cls, *, actor: Actor, document_id: Any, limit: int, cursor: int) -> dict[str, Any]:
        detail = document_detail(actor=actor, document_id=document_id, limit=limit + 1, offset=cursor)
        more = len(detail.chunks) > limit
        return {
            "ok": True,
            "document": document_out(detail.document),
            "chunks": [chunk_out(c) for c in detail.chunks[:limit]],
            "next_cursor": cursor + limit if more else None,
            "history": [history_out(h) for h in detail.history],
        }


class ListDocumentsApi(ToolApi):
    """The documents you may see, newest first, paged with ``cursor``; narrowed by owner, workspace, status."""

    tool = "list_documents"
    kind = ToolKind.READ
    example = examples.LIST_DOCUMENTS

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(required=False, max_length=200)
        group_id = serializers.CharField(required=False, max_length=100, help_text="workspace slug or id")
        status = serializers.ChoiceField(choices=DocumentStatus.values, required=False)
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        cursor = serializers.IntegerField(
            min_value=0, max_value=10**9, default=0, help_text="next_cursor of the previous page"
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        documents = DocumentOut(many=True)
        count = serializers.IntegerField()
        next_cursor = serializers.IntegerField(allow_null=True, help_text="null on the last page")

    @classmethod
    def run(cls, *, actor: Actor, limit: int, cursor: int, **params: Any) -> dict[str, Any]:
        page = document_list(actor=actor, limit=limit + 1, offset=cursor, **params)
        documents = [document_out(d) for d in page[:limit]]
        more = len(page) > limit
        return {
            "ok": True,
            "documents": documents,
            "count": len(documents),
            "next_cursor": cursor + limit if more else None,
        }


class ForgetDocumentApi(ToolApi):
    """Soft-delete a document and its chunks (author, moderator or admin): they leave search,
    context and answers; the rows and the history stay. The memories extracted from it
    (extract=true) that nothing else says (no other document, no conversation that said them
    too, no correction by hand) are forgotten with it, as forget_memory does, with a history row
    naming the document: memories_forgotten says how many. A global admin can restore them."""

    tool = "forget_document"
    kind = ToolKind.WRITE
    example = examples.FORGET_DOCUMENT

    class InputSerializer(ActorInput):
        document_id = serializers.UUIDField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        document_id = serializers.UUIDField()
        forgotten_at = serializers.DateTimeField()
        memories_forgotten = serializers.IntegerField(
            help_text="memories extracted from the document and said nowhere else, forgotten with it"
        )

    @classmethod
    def run(cls, *, actor: Actor, document_id: Any, reason: str) -> dict[str, Any]:
        forgotten = document_forget(actor=actor, document_id=document_id, reason=reason)
        document = forgotten.document
        assert document.deleted_at is not None  # document_forget has just set it
        return {
            "ok": True,
            "document_id": str(document.id),
            "forgotten_at": document.deleted_at.isoformat(),
            "memories_forgotten": forgotten.memories_forgotten,
        }

from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from memory.documents.models import Chunk, Document, DocumentHistory, ExtractedFrom


@admin.register(Document)
class DocumentAdmin(ReadOnlyAdmin):
    list_display = ["title", "user_id", "status", "version", "chunks_done", "chunks_total", "workspace", "created_at"]
    list_filter = ["status", "content_type"]
    search_fields = ["=id", "title", "source_url", "user_id", "=sha256"]
    list_select_related = ["workspace"]
    exclude = ["text"]


@admin.register(Chunk)
class ChunkAdmin(ReadOnlyAdmin):
    list_display = ["document", "version", "position", "heading", "char_start", "char_end", "superseded_at"]
    search_fields = ["=id", "=document__id", "heading"]
    raw_id_fields = ["document"]
    list_select_related = ["document"]
    exclude = ["embedding"]


@admin.register(DocumentHistory)
class DocumentHistoryAdmin(ReadOnlyAdmin):
    list_display = ["document", "action", "version", "actor", "created_at"]
    list_filter = ["action"]
    search_fields = ["=document__id", "title"]
    raw_id_fields = ["document"]
    exclude = ["text"]


@admin.register(ExtractedFrom)
class ExtractedFromAdmin(ReadOnlyAdmin):
    list_display = ["memory", "chunk", "created"]
    search_fields = ["=memory__id", "=chunk__id"]
    raw_id_fields = ["memory", "chunk"]

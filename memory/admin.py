from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from memory.models import (
    Concept,
    Edge,
    EmbeddingSpace,
    Entity,
    Inference,
    IngestRun,
    IngestStage,
    Memory,
    MemoryHistory,
    Profile,
    ReembedJob,
)


class HistoryInline(admin.TabularInline):
    model = MemoryHistory
    extra = 0
    # Tuples: a list would have to be typed both as field groups and as field names.
    fields = readonly_fields = ("created_at", "action", "old_content", "new_content", "actor", "reason")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Memory)
class MemoryAdmin(ReadOnlyAdmin):
    list_display = ["content", "memory_type", "user_id", "rbac_scope", "source", "valid_to", "created_at"]
    list_filter = ["memory_type", "source", "rbac_scope"]
    search_fields = ["content", "user_id", "=id"]
    exclude = ["embedding", "search_vector"]
    inlines = [HistoryInline]
    list_select_related = True

    def get_queryset(self, request):
        return super().get_queryset(request).defer("embedding", "search_vector")


@admin.register(Edge)
class EdgeAdmin(ReadOnlyAdmin):
    list_display = ["source", "edge_type", "target", "confidence", "reason", "created_at", "expired_at"]
    list_filter = ["edge_type"]
    raw_id_fields = ["source", "target"]


@admin.register(Entity)
class EntityAdmin(ReadOnlyAdmin):
    list_display = ["name", "entity_type", "rbac_scope", "created_at"]
    list_filter = ["entity_type"]
    search_fields = ["name", "normalized_name"]
    exclude = ["embedding"]


@admin.register(Concept)
class ConceptAdmin(ReadOnlyAdmin):
    list_display = ["name", "description"]


class StageInline(admin.TabularInline):
    model = IngestStage
    extra = 0
    fields = readonly_fields = ("position", "name", "status", "duration_ms", "error", "inference_ids", "output")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(IngestRun)
class IngestRunAdmin(ReadOnlyAdmin):
    list_display = ["started_at", "status", "actor", "user_id", "rbac_scope", "error_code", "llm_calls"]
    list_filter = ["status", "error_code"]
    search_fields = ["=id", "user_id", "message"]
    inlines = [StageInline]


@admin.register(EmbeddingSpace)
class EmbeddingSpaceAdmin(ReadOnlyAdmin):
    list_display = ["provider", "model", "dimension", "created_at"]


@admin.register(Inference)
class InferenceAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "kind", "provider", "model", "purpose", "attempt", "latency_ms", "ok", "error"]
    list_filter = ["kind", "provider", "ok", "purpose"]
    date_hierarchy = "created_at"


@admin.register(Profile)
class ProfileAdmin(ReadOnlyAdmin):
    list_display = ["user_id", "workspace", "method", "sources", "stale", "refreshed_at"]
    list_filter = ["method", "stale"]
    search_fields = ["user_id"]


@admin.register(ReembedJob)
class ReembedJobAdmin(ReadOnlyAdmin):
    list_display = ["provider", "model", "dimension", "status", "phase", "done", "total", "started_at", "finished_at"]
    list_filter = ["status"]

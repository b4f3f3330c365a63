from django.contrib import admin

from memory.models import EmbeddingSpace, Inference


@admin.register(EmbeddingSpace)
class EmbeddingSpaceAdmin(admin.ModelAdmin):
    list_display = ["provider", "model", "dimension", "created_at"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Inference)
class InferenceAdmin(admin.ModelAdmin):
    list_display = ["created_at", "kind", "provider", "model", "purpose", "attempt", "latency_ms", "ok", "error"]
    list_filter = ["kind", "provider", "ok", "purpose"]
    date_hierarchy = "created_at"

    def has_change_permission(self, request, obj=None) -> bool:
        return False

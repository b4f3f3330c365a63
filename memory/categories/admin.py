from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from memory.categories.models import AtlasSnapshot, Category, Filing


@admin.register(Category)
class CategoryAdmin(ReadOnlyAdmin):
    list_display = ("path", "rbac_scope", "depth", "created_at")
    search_fields = ("path",)
    list_filter = ("depth",)


@admin.register(Filing)
class FilingAdmin(ReadOnlyAdmin):
    list_display = ("memory", "category", "method", "created_at")
    list_filter = ("method",)
    raw_id_fields = ("memory", "category")


@admin.register(AtlasSnapshot)
class AtlasSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("taken_at", "memory_total", "category_total", "duration_ms")
    exclude = ("categories", "memories")

from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from memory.fastthink.models import ThinkSession, Thought


class ThoughtInline(admin.TabularInline):
    model = Thought
    extra = 0
    # Tuples: a list would have to be typed both as field groups and as field names.
    fields = readonly_fields = ("idx", "thought_type", "parent_idx", "content", "memory", "supporting", "created_at")
    raw_id_fields = ["memory"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ThinkSession)
class ThinkSessionAdmin(ReadOnlyAdmin):
    """For inspection only: sessions change through the FastThink services."""

    list_display = ["session_id", "actor", "state", "thought_count", "user_id", "started_at", "deadline_at", "ended_at"]
    list_filter = ["state", "timed_out_reason"]
    search_fields = ["session_id", "actor__username", "user_id"]
    raw_id_fields = ["committed_memory"]
    inlines = [ThoughtInline]
    list_select_related = ["actor"]

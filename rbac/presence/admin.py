from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from rbac.presence.models import AgentInstance


@admin.register(AgentInstance)
class AgentInstanceAdmin(ReadOnlyAdmin):
    """For inspection; instances change only through heartbeats, farewells and expiry."""

    list_display = ["agent_id", "user", "parent", "status", "first_seen", "last_seen", "ended_at", "end_reason"]
    list_filter = ["end_reason", ("ended_at", admin.EmptyFieldListFilter)]
    search_fields = ["agent_id", "user__username", "status"]
    list_select_related = ["user", "parent"]
    ordering = ["-last_seen"]
    date_hierarchy = "last_seen"

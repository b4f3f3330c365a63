from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from memory.outbox.models import Notice, PendingInput


@admin.register(PendingInput)
class PendingInputAdmin(ReadOnlyAdmin):
    list_display = ["id", "status", "creator", "user_id", "workspace", "attempts", "created_at", "finished_at"]
    list_filter = ["status"]
    search_fields = ["=id", "user_id", "creator__username"]
    list_select_related = ["creator", "workspace"]


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ["kind", "subject", "recipient", "created_at", "delivered_at", "deliveries", "retired_at"]
    list_filter = ["kind", "resurfaces"]
    search_fields = ["=id", "subject", "recipient__username"]
    list_select_related = ["recipient"]

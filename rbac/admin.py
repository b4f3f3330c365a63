from django.contrib import admin

from rbac.models import ApiToken, Principal


@admin.register(Principal)
class PrincipalAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "is_global_admin", "created_at"]
    list_filter = ["kind", "is_global_admin"]
    search_fields = ["user__username"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    # The digest is never shown: it identifies a token as well as the token itself does.
    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    fields = ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    readonly_fields = ["prefix", "created_at", "last_used_at"]

    def has_add_permission(self, request) -> bool:  # tokens are issued by the command or the API: shown once
        return False

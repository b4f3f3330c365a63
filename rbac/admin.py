from django.contrib import admin

from rbac.models import ApiToken, Federation, FederationMember, Membership, Principal, Workspace


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


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["user", "role", "granted_at", "granted_by"]
    readonly_fields = ["user", "role", "granted_at", "granted_by"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # roles change through grant_role / the control room
        return False


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "reserved", "created_at"]
    search_fields = ["slug", "name"]
    readonly_fields = ["reserved", "created_at"]
    inlines = [MembershipInline]

    def has_delete_permission(self, request, obj=None) -> bool:  # deletion goes through the service's guards
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "workspace", "role", "granted_at", "granted_by"]
    list_filter = ["role", "workspace"]
    search_fields = ["user__username", "workspace__slug"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class FederationMemberInline(admin.TabularInline):
    model = FederationMember
    extra = 0
    readonly_fields = ["workspace", "joined_at", "left_at"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Federation)
class FederationAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "created_at"]
    inlines = [FederationMemberInline]

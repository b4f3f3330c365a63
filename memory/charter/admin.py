from django.contrib import admin

from helixsite.read_only_admin import ReadOnlyAdmin
from memory.charter.models import ContradictionReview, LearnedRule, RuleProposal


@admin.register(ContradictionReview)
class ContradictionReviewAdmin(ReadOnlyAdmin):
    list_display = [
        "conflict_kind",
        "status",
        "resolution",
        "workspace",
        "resolved_by",
        "settled_by_rule",
        "created_at",
    ]
    list_filter = ["status", "resolution", "conflict_kind"]
    search_fields = ["=id", "=from_memory__id", "=to_memory__id", "conflict_kind"]
    raw_id_fields = ["from_memory", "to_memory"]
    list_select_related = ["workspace", "resolved_by", "settled_by_rule"]


@admin.register(RuleProposal)
class RuleProposalAdmin(ReadOnlyAdmin):
    list_display = ["text", "resolution", "status", "workspace", "created_at"]
    list_filter = ["status", "resolution"]
    search_fields = ["=id", "conflict_kind", "text"]


@admin.register(LearnedRule)
class LearnedRuleAdmin(ReadOnlyAdmin):
    list_display = ["text", "conflict_kind", "resolution", "workspace", "adopted_by", "adopted_at", "retired_at"]
    list_filter = ["resolution"]
    search_fields = ["=id", "conflict_kind", "text"]

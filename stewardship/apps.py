from django.apps import AppConfig


class StewardshipConfig(AppConfig):
    name = "stewardship"
    verbose_name = "Stewardship"

    def ready(self) -> None:
        from memory.erasure.services import erasure_tables
        from stewardship.erasure import audit_trail_tables
        from stewardship.owner_counts import owner_count_tables

        # Every erasure of an owner, from the room or the command line, redacts the audit trail too.
        erasure_tables.connect(audit_trail_tables, dispatch_uid="stewardship-audit-trail-erasure")
        # It also folds the owners' counts once the memories are gone, so the owner's id leaves them.
        erasure_tables.connect(owner_count_tables, dispatch_uid="stewardship-owner-counts-erasure")

"""List principals with their workspaces and roles."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from rich.console import Console
from rich.table import Table

from rbac.selectors import principals_with_roles


class Command(BaseCommand):
    help = "List principals with kind, status, tokens and their role in each workspace."

    def handle(self, *args, **options) -> None:
        table = Table("principal", "kind", "global admin", "active", "workspaces and roles")
        for user in principals_with_roles():
            principal = getattr(user, "principal", None)
            roles = ", ".join(f"{m.workspace.slug}: {m.role}" for m in user.memberships.all()) or "-"
            table.add_row(
                user.username,
                principal.kind if principal else "human",
                "yes" if principal and principal.is_global_admin else "",
                "yes" if user.is_active else "no",
                roles,
            )
        # Django's OutputWrapper is a text stream, but not declared as typing.IO, which rich asks for.
        Console(file=self.stdout, width=120).print(table)  # type: ignore[arg-type]

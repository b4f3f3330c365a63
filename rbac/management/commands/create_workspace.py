"""Create a workspace."""

from __future__ import annotations

from helixsite.commands import ServiceCommand
from rbac.policy import SYSTEM
from rbac.services import workspace_create


class Command(ServiceCommand):
    help = "Create a workspace (a working group memories are visible through)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name")
        parser.add_argument("--slug", help="short id used as group_id (default: from the name)")

    def handle(self, *args, name: str, slug: str | None, **options) -> None:
        workspace = workspace_create(actor=SYSTEM, name=name, slug=slug)
        self.stdout.write(self.style.SUCCESS(f"Created workspace {workspace.slug} (id {workspace.id})."))

"""Create federations and attach or detach workspaces."""

from __future__ import annotations

from django.core.management.base import CommandError

from helixsite.commands import ServiceCommand
from rbac.models import Federation
from rbac.policy import SYSTEM, federation_get, workspace_get
from rbac.services import federation_attach, federation_create, federation_detach


class Command(ServiceCommand):
    help = "Manage federations (dedup groups): create NAME | attach FED WORKSPACE | detach FED WORKSPACE | list."

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["create", "attach", "detach", "list"])
        parser.add_argument("names", nargs="*", help="federation name, or federation and workspace")

    def handle(self, *args, action: str, **options) -> None:
        values = options["names"]
        if action == "list":
            for federation in Federation.objects.prefetch_related("members__workspace"):
                current = sorted(m.workspace.slug for m in federation.members.all() if m.left_at is None)
                self.stdout.write(f"{federation.slug} (id {federation.id}): {', '.join(current) or '(no workspaces)'}")
            return
        if action == "create":
            if not values:
                raise CommandError("federation create takes a name.")
            federation = federation_create(actor=SYSTEM, name=" ".join(values))
            self.stdout.write(self.style.SUCCESS(f"Created federation {federation.slug} (id {federation.id})."))
            return
        if len(values) != 2:
            raise CommandError(f"federation {action} takes a federation and a workspace.")
        federation = federation_get(actor=SYSTEM, ref=values[0])
        workspace = workspace_get(actor=SYSTEM, ref=values[1])
        if action == "attach":
            federation_attach(actor=SYSTEM, federation=federation, workspace=workspace)
            self.stdout.write(f"{workspace.slug} joined {federation.slug}: its new writes deduplicate across it.")
        else:
            federation_detach(actor=SYSTEM, federation=federation, workspace=workspace)
            self.stdout.write(f"{workspace.slug} left {federation.slug}; earlier memories keep their visibility.")

"""Grant, change or revoke a principal's role in a workspace."""

from __future__ import annotations

from helixsite.commands import ServiceCommand
from rbac.models import Role
from rbac.policy import SYSTEM, workspace_get
from rbac.selectors import user_get_by_name
from rbac.services import membership_grant, membership_revoke


class Command(ServiceCommand):
    help = "Give a principal a role in a workspace (replacing any role it had there), or --revoke it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("workspace", help="workspace slug or id")
        parser.add_argument("role", nargs="?", choices=Role.values)
        parser.add_argument("--revoke", action="store_true")

    def handle(self, *args, username: str, workspace: str, role: str | None, revoke: bool, **options) -> None:
        user = user_get_by_name(username=username)
        target = workspace_get(actor=SYSTEM, ref=workspace)
        if revoke:
            membership_revoke(actor=SYSTEM, workspace=target, user=user)
            self.stdout.write(f"{username} is no longer a member of {target.slug}.")
            return
        if role is None:
            self.print_help("manage.py", "grant_role")
            return
        membership_grant(actor=SYSTEM, workspace=target, user=user, role=role)
        self.stdout.write(self.style.SUCCESS(f"{username} is now {role} in {target.slug}."))

"""Create a principal (a human who logs in, or an agent that uses tokens)."""

from __future__ import annotations

import getpass

from helixsite.commands import ServiceCommand
from rbac.models import Principal
from rbac.services import principal_create, token_issue


class Command(ServiceCommand):
    help = "Create a principal. Agents get an API token printed once; humans may be given a password."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--agent", action="store_true", help="an agent (default: a human)")
        parser.add_argument("--global-admin", action="store_true", help="grant the global admin role")
        parser.add_argument("--password", action="store_true", help="ask for a password (humans)")
        parser.add_argument("--token", action="store_true", help="also issue an API token (always for agents)")

    def handle(self, *args, username: str, agent: bool, global_admin: bool, password: bool, token: bool, **options):
        secret = getpass.getpass(f"Password for {username}: ") if password else None
        kind = Principal.Kind.AGENT if agent else Principal.Kind.HUMAN
        principal = principal_create(username=username, kind=kind, is_global_admin=global_admin, password=secret)
        role = " (global admin)" if global_admin else ""
        self.stdout.write(self.style.SUCCESS(f"Created {kind} {username}{role}."))
        if agent or token:
            issued = token_issue(user=principal.user, name="created-with-principal")
            self.stdout.write(f"API token (shown once): {issued.raw}")

"""Issue an API token for a principal; the raw token is printed once."""

from __future__ import annotations

from helixsite.commands import ServiceCommand
from rbac.selectors import user_get_by_name
from rbac.services import token_issue


class Command(ServiceCommand):
    help = "Issue an API token for a principal and print it once."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="cli", help="a label to tell tokens apart")

    def handle(self, *args, username: str, name: str, **options) -> None:
        issued = token_issue(user=user_get_by_name(username=username), name=name)
        self.stdout.write(f"API token for {username} ({name}), shown once:")
        self.stdout.write(issued.raw)

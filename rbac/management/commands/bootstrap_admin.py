"""Create the first global admin with a generated password and API token, printed once."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from rbac.services import admin_bootstrap


class Command(BaseCommand):
    help = "Create the first global admin (only when none exists) and print its credentials once."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options) -> None:
        credentials = admin_bootstrap(username=username)
        if credentials is None:
            self.stdout.write("A global admin exists already; nothing created.")
            return
        self.stdout.write(self.style.SUCCESS("Created the first global admin. These are shown once; keep them:"))
        self.stdout.write(f"  username:  {credentials.username}")
        self.stdout.write(f"  password:  {credentials.password}")
        self.stdout.write(f"  API token: {credentials.token}")

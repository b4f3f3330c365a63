"""Create the first global admin with a generated password and API token, given once: printed on a
terminal, else written to a file only this user can read."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from rbac.first_admin import credentials_hand_over
from rbac.services import admin_bootstrap


class Command(BaseCommand):
    help = (
        "Create the first global admin (only when none exists) and give its credentials once: printed on a "
        "terminal, else written to first-admin.txt in HELIX_DATA_DIR."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options) -> None:
        credentials = admin_bootstrap(username=username)
        if credentials is None:
            self.stdout.write("A global admin exists already; nothing created.")
            return
        credentials_hand_over(credentials=credentials, out=self.stdout)

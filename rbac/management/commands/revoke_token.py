"""Revoke a principal's API tokens, by prefix or all of them."""

from __future__ import annotations

from django.core.management.base import CommandError

from helixsite.commands import ServiceCommand
from rbac.models import ApiToken
from rbac.selectors import user_get_by_name
from rbac.services import token_revoke


class Command(ServiceCommand):
    help = "Revoke an API token (by the prefix shown in lists) or, with --all, every token of a principal."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("prefix", nargs="?", help="the 8 characters after hxt_")
        parser.add_argument("--all", action="store_true")

    def handle(self, *args, username: str, prefix: str | None, all: bool, **options) -> None:
        tokens = ApiToken.objects.active().filter(user=user_get_by_name(username=username))
        if not all:
            if not prefix:
                raise CommandError("Name a token prefix, or pass --all.")
            tokens = tokens.filter(prefix=prefix)
        revoked = 0
        for token in tokens:
            token_revoke(token=token)
            revoked += 1
        self.stdout.write(f"Revoked {revoked} token(s) of {username}.")

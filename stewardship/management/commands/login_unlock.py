"""Let a username, or an address, log in again at once: refill its budgets of failed logins."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError
from django.db import transaction

from helixsite.commands import ServiceCommand
from rbac.login import login_unlock
from stewardship.models import AuditEntry


class Command(ServiceCommand):
    help = (
        "Refill the failed-login budgets of a username (from every address, and under a spray), of a client "
        "address (for every username), or of one username from one address: they may log in again at once."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username", nargs="?", help="the username to unlock (from every address unless --address)")
        parser.add_argument("--address", help="the client address to unlock (for every username unless a username)")
        parser.add_argument("--actor", default="", help="the name the audit line gives (default: manage.py)")

    def handle(self, *args: Any, username: str | None, address: str | None, actor: str, **options: Any) -> None:
        if not username and not address:
            raise CommandError("Name a username, an --address, or both.")
        whom = " from ".join(part for part in (username, address) if part)
        with transaction.atomic():
            refilled = login_unlock(username=username or None, address=address or None)
            AuditEntry.objects.create(
                actor=None,
                actor_name=(actor or "manage.py login_unlock")[:150],
                action="login.unlock",
                target=(f"principal:{username}" if username else f"address:{address}")
                + (f" from {address}" if username and address else "")[:300],
                after={"budgets_refilled": refilled},
            )
        if refilled:
            self.stdout.write(f"Unlocked {whom}: {refilled} budget(s) of failed logins refilled.")
        else:
            self.stdout.write(f"{whom} had no failed logins counted: nothing to unlock.")

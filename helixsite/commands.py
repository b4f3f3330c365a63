"""Base for management commands that call services: a refused call is one clear line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from helixsite.errors import ApplicationError


class ServiceCommand(BaseCommand):
    def execute(self, *args: Any, **options: Any) -> str | None:
        try:
            return super().execute(*args, **options)
        except ApplicationError as exc:
            raise CommandError(f"{exc.message} ({exc.code})") from None

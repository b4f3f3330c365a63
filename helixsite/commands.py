"""Base for management commands that call services: a refused call is one clear line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from rest_framework.exceptions import ValidationError

from helixsite.errors import ApplicationError, validation_error


class ServiceCommand(BaseCommand):
    """Input a tool's serializer refuses, and refusals of a service, end the command with the
    API's message and code (and the field at fault)."""

    def execute(self, *args: Any, **options: Any) -> str | None:
        try:
            return super().execute(*args, **options)
        except ApplicationError as exc:
            field = f"{exc.field}: " if exc.field else ""
            raise CommandError(f"{field}{exc.message} ({exc.code})") from None
        except ValidationError as exc:
            error = validation_error(exc.detail, exc.get_codes())["error"]
            field = f"{error['field']}: " if error.get("field") else ""
            raise CommandError(f"{field}{error['message']} ({error['code']})") from None

"""Add a memory from the command line, through the same pipeline as the API."""

from __future__ import annotations

import json

from django.core.management.base import CommandError
from rich.console import Console
from rich.table import Table

from helixsite.commands import ServiceCommand
from memory.api.write import AddMemoryApi
from memory.services.add import memory_add
from rbac.selectors import user_get_by_name


class Command(ServiceCommand):
    help = "Run add_memory as a principal and print what was decided for each extracted statement."

    def add_arguments(self, parser) -> None:
        parser.add_argument("message")
        parser.add_argument("--actor", required=True, help="the principal writing")
        parser.add_argument("--user", required=True, help="whose memory it is (user_id)")
        parser.add_argument("--group", help="workspace slug or id")
        parser.add_argument("--no-extract", action="store_true", help="store the message verbatim as one memory")
        parser.add_argument("--metadata", help="a JSON object stored with the memories")
        parser.add_argument("--occurred-at", help="event time, RFC 3339 or YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="print the raw result")

    def handle(
        self, *args, message: str, actor: str, user: str, group: str | None, no_extract: bool, **options
    ) -> None:
        try:
            metadata = json.loads(options["metadata"]) if options["metadata"] else None
        except ValueError as exc:
            raise CommandError(f"--metadata is not JSON: {exc}") from None
        call = {"actor_id": actor, "user_id": user, "message": message, "extract": not no_extract}
        optional = {"group_id": group, "metadata": metadata, "occurred_at": options["occurred_at"]}
        params = AddMemoryApi.parse({**call, **{k: v for k, v in optional.items() if v is not None}})
        result = memory_add(actor=user_get_by_name(username=actor), **params)
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
            return
        table = Table("op", "statement", "memory", "reason")
        for decision in result["decisions"]:
            table.add_row(decision["op"], decision["atom"], (decision["memory_id"] or "")[:8], decision["reason"])
        # Django's OutputWrapper is a text stream, but not declared as typing.IO, which rich asks for.
        Console(file=self.stdout, width=140).print(table)  # type: ignore[arg-type]
        for item in result["skipped"]:
            self.stdout.write(f"skipped: {item['text']}")
        self.stdout.write(f"run {result['run_id']}")

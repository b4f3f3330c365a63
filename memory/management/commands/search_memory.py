"""Search memories from the command line and see why each result ranks where it does."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table

from helixsite.commands import ServiceCommand
from memory.api.read import SearchMemoryApi
from memory.search.conductor import memory_search
from rbac.selectors import user_get_by_name


class Command(ServiceCommand):
    help = "Run search_memory as a principal and print the results with their ranking signals."

    def add_arguments(self, parser) -> None:
        parser.add_argument("query")
        parser.add_argument("--actor", required=True, help="the principal searching")
        parser.add_argument("--user", help="whose memories (user_id); required for the personal scope")
        parser.add_argument("--scope", default="personal", choices=["personal", "collective", "all"])
        parser.add_argument("--mode", help="recent, contextual, deep or full")
        parser.add_argument("--limit", type=int)
        parser.add_argument("--from", dest="time_from", help="event time from (RFC 3339 or YYYY-MM-DD)")
        parser.add_argument("--to", dest="time_to", help="event time to")
        parser.add_argument("--days", dest="temporal_days", type=int, help="only the last N days")
        parser.add_argument("--depth", dest="graph_depth", type=int, help="graph expansion depth (0 to 4)")
        parser.add_argument("--json", action="store_true", help="print the raw result")

    def handle(self, *args, query: str, actor: str, **options) -> None:
        names = ("mode", "limit", "scope", "time_from", "time_to", "temporal_days", "graph_depth")
        given = {k: options[k] for k in names if options[k] is not None}
        if options["user"]:
            given["user_id"] = options["user"]
        params = SearchMemoryApi.parse({"actor_id": actor, "query": query, **given})
        found = memory_search(actor=user_get_by_name(username=actor), **params)
        if options["json"]:
            self.stdout.write(json.dumps(found, indent=2, default=str))
            return
        table = Table("#", "score", "content", "cos", "bm25#", "vec#", "ppr", "fresh", "origin", "notes")
        for rank, result in enumerate(found["results"], start=1):
            s = result["signals"]
            origin = result["origin"] + (f" ({result['edge']['type']})" if "edge" in result else "")
            table.add_row(
                str(rank),
                f"{result['score']:.3f}",
                result["content"],
                f"{s['cosine']:.2f}",
                str(s["bm25_rank"] or "-"),
                str(s["vector_rank"] or "-"),
                "-" if s["ppr"] is None else f"{s['ppr']:.2f}",
                f"{s['freshness']:.2f}",
                origin,
                _notes(result),
            )
        # Django's OutputWrapper is a text stream, but not declared as typing.IO, which rich asks for.
        Console(file=self.stdout, width=160).print(table)  # type: ignore[arg-type]
        self.stdout.write(f"{found['count']} results, mode {found['mode']}, scope {found['scope']}")


def _notes(result: dict) -> str:
    notes = []
    if result["superseded"]:
        notes.append("superseded")
    if result["flashback"]:
        notes.append(f"flashback {result['event_date'][:10]}")
    if result.get("collapsed"):
        notes.append(f"+{len(result['collapsed'])} collapsed")
    if result.get("holders", 1) > 1:
        notes.append(f"{result['holders']} holders")
    if result.get("exact_match"):
        notes.append("exact")
    return ", ".join(notes)

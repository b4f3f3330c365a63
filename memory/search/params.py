"""Stage 0: resolve a search request's mode preset and time window."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from helixsite.errors import InvalidInput
from memory.event_time import moment_parse
from memory.search.dates import NamedTime, named_time
from memory.search.scope import Window
from memory.search.speakers import without_speakers

SCOPES = ("personal", "collective", "all")


@dataclass(frozen=True)
class Mode:
    name: str
    limit: int
    graph_depth: int
    freshness_weight: float
    min_score: float


@dataclass(frozen=True)
class SearchRequest:
    query: str
    user_id: str | None
    mode: Mode
    limit: int
    scope: str
    window: Window
    graph_depth: int
    named: NamedTime | None = None  # a time the query's words name: preferred, not required
    speakers: frozenset[str] = frozenset()  # speakers the query names (memory.search.speakers)

    @property
    def matched(self) -> str:
        """The query as matched against memories' words and meaning: less the speakers it names,
        whose lines the speaker preference raises instead."""
        return without_speakers(self.query, self.speakers)


def modes() -> dict[str, Mode]:
    return {name: Mode(name=name, **preset) for name, preset in settings.HELIX_SEARCH_MODES.items()}


def search_request(
    *,
    query: str,
    user_id: str | None = None,
    mode: str | None = None,
    limit: int | None = None,
    scope: str = "personal",
    temporal_days: int | None = None,
    time_from: str | None = None,
    time_to: str | None = None,
    graph_depth: int | None = None,
) -> SearchRequest:
    """The request in force: the mode's preset filled in, the time window resolved. Ranges and
    lengths were checked at the door (the tool's input serializer); what only the server's
    configuration can tell (the modes) and what needs several parameters is checked here."""
    if not query.strip():
        raise InvalidInput("query must not be empty.", code="empty_query", field="query")
    presets = modes()
    chosen = presets.get(mode or settings.HELIX_SEARCH_DEFAULT_MODE)
    if chosen is None:
        raise InvalidInput(f"mode must be one of: {', '.join(presets)}.", code="unknown_mode", field="mode")
    if scope == "personal" and not (isinstance(user_id, str) and user_id.strip()):
        raise InvalidInput("user_id is required for a personal search.", field="user_id")
    return SearchRequest(
        query=query.strip(),
        user_id=user_id.strip() if isinstance(user_id, str) and user_id.strip() else None,
        mode=chosen,
        limit=chosen.limit if limit is None else limit,
        scope=scope,
        window=_window(temporal_days, time_from, time_to),
        graph_depth=chosen.graph_depth if graph_depth is None else graph_depth,
        named=named_time(query),
    )


def _window(temporal_days: Any, time_from: Any, time_to: Any) -> Window:
    if time_from not in (None, "") or time_to not in (None, ""):
        start = _bound(time_from, "time_from", upper=False)
        end = _bound(time_to, "time_to", upper=True)
        if start and end and start > end:
            raise InvalidInput("time_from is after time_to.", code="inverted_window", field="time_from")
        return Window(start, end, explicit=True)
    if temporal_days is not None:
        return Window(timezone.now() - timedelta(days=temporal_days), None, explicit=True)
    return Window(None, None, explicit=False)


def _bound(value: Any, field: str, *, upper: bool) -> datetime | None:
    """RFC 3339, or YYYY-MM-DD: the start of the day as a lower bound, its end as an upper one."""
    if value in (None, ""):
        return None
    return moment_parse(str(value), field=field, code="invalid_time", end_of_day=upper)

"""Event times as clients send them (``occurred_at``, ``time_from``, ``time_to``, an import's
rows): RFC 3339 date-times or YYYY-MM-DD days, that exist on the calendar, in a range where a
stored time reads back in any time zone. Outside it, PostgreSQL would store what Python cannot
load (year 10000, or 1 BC, once converted to UTC) and every read of the row would fail."""

from __future__ import annotations

from datetime import UTC, datetime, time

from django.utils.dateparse import parse_date, parse_datetime

from helixsite.errors import InvalidInput

EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 30, tzinfo=UTC)


def moment_parse(text: str, *, field: str, code: str = "invalid", end_of_day: bool = False) -> datetime:
    """An aware datetime; a bare day starts at midnight (UTC), or ends at its last instant with
    ``end_of_day``. Anything else is refused naming ``field``."""
    text = text.strip()
    try:
        moment = parse_datetime(text) if "T" in text or " " in text else None
        day = parse_date(text) if moment is None and len(text) == 10 else None
        if day is not None:
            moment = datetime.combine(day, time.max if end_of_day else time.min)
        if moment is None:
            raise InvalidInput(f"{field} must be an RFC 3339 date-time or YYYY-MM-DD.", code=code, field=field)
        moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    except ValueError:  # well-formed but not on the calendar: 2024-02-30, hour 25, +25:00
        raise InvalidInput(f"{field} is not a date and time that exists: {text!r}.", code=code, field=field) from None
    try:
        in_range = EARLIEST <= moment.astimezone(UTC) <= LATEST
    except OverflowError:  # before year 1 or after 9999 once in UTC
        in_range = False
    if not in_range:
        raise InvalidInput(
            f"{field} must lie between {EARLIEST:%Y-%m-%d} and {LATEST:%Y-%m-%d} (UTC).",
            code="out_of_range",
            field=field,
        )
    return moment

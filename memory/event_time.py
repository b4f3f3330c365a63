"""Times as clients send them (``occurred_at``, ``expires_at``, ``time_from``, ``time_to``, an
import's rows): RFC 3339 date-times or YYYY-MM-DD days, that exist on the calendar, and every
instant of them from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z, in any offset.

That is the range of Python's datetime, which is how every stored time is read back (in UTC:
Django sets the connection's time zone). Outside it, PostgreSQL would store what Python cannot
load (year 10000, or 1 BC, once converted to UTC) and every read of the row would fail."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from django.utils.dateparse import parse_date, parse_datetime

from helixsite.errors import InvalidInput

EARLIEST = datetime.min.replace(tzinfo=UTC)
LATEST = datetime.max.replace(tzinfo=UTC)
RANGE = "0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z"
FOUR_CENTURIES = timedelta(days=146097)  # the Gregorian calendar repeats after them


def moment_parse(text: str, *, field: str, code: str = "invalid", end_of_day: bool = False) -> datetime:
    """An aware datetime; a bare day starts at midnight (UTC), or ends at its last instant with
    ``end_of_day``. Anything else is refused naming ``field``."""
    text = text.strip().upper()  # RFC 3339 allows "t" and "z"
    # Python has no year 0 (1 BC), whose last hours in a negative offset are 0001-01-01 in UTC;
    # year 400 has its calendar, 400 years later.
    bc = text.startswith("0000")
    try:
        moment = _parsed(f"0400{text[4:]}" if bc else text, end_of_day=end_of_day)
        if moment is None:
            raise InvalidInput(f"{field} must be an RFC 3339 date-time or YYYY-MM-DD.", code=code, field=field)
    except ValueError:  # well-formed but not on the calendar: 2024-02-30, hour 25, +25:00
        raise InvalidInput(f"{field} is not a date and time that exists: {text!r}.", code=code, field=field) from None
    try:
        in_utc = moment.astimezone(UTC) - (FOUR_CENTURIES if bc else timedelta(0))
    except OverflowError:  # before year 1 or after 9999 once in UTC
        raise InvalidInput(
            f"{field} must lie between {RANGE} once converted to UTC.", code="out_of_range", field=field
        ) from None
    return in_utc if bc else moment


def _parsed(text: str, *, end_of_day: bool) -> datetime | None:
    moment = parse_datetime(text) if "T" in text or " " in text else None
    day = parse_date(text) if moment is None and len(text) == 10 else None
    if day is not None:
        moment = datetime.combine(day, time.max if end_of_day else time.min)
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

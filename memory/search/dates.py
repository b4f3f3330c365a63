"""The time a question names ("on 1 February, 2023", "in May 2022", "the week before August 3,
2023", "in 2024"): memories whose event time falls there are preferred, never required. An
explicit window (``time_from``/``time_to``) filters; a time said in the words only ranks.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): n for n, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_BEFORE = r"(?P<before>(?:the\s+)?(?P<unit>day|weekend|week|month)\s+before\s+)?"
_PATTERNS = [
    re.compile(rf"\b{_BEFORE}{_YEAR}-(?P<month>\d\d)-(?P<day>\d\d)\b", re.I),
    re.compile(rf"\b{_BEFORE}{_DAY}(?:\s+of)?\s+{_MONTH},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_BEFORE}{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b(?:in\s+|during\s+)?{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I),
    re.compile(rf"\b(?:in|during|of)\s+{_YEAR}\b", re.I),
]
# A day said in a question is when something happened as it was told, give or take a few days.
_DAY_SLACK = timedelta(days=3)
_BEFORE_SPAN = {
    "day": timedelta(days=1),
    "weekend": timedelta(days=4),
    "week": timedelta(days=8),
    "month": timedelta(days=32),
}


@dataclass(frozen=True)
class NamedTime:
    start: datetime
    end: datetime
    said: str

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment <= self.end


def named_time(query: str) -> NamedTime | None:
    """The first time the query names, as a span of event time; None if it names none."""
    for pattern in _PATTERNS:
        match = pattern.search(query)
        if match is None:
            continue
        span = _span(match.groupdict())
        if span is not None:
            return NamedTime(*span, said=match[0].strip())
    return None


def _span(parts: dict[str, str | None]) -> tuple[datetime, datetime] | None:
    year, day = _number(parts.get("year")), _number(parts.get("day"))
    month_said = (parts.get("month") or "").lower()
    month = _MONTHS.get(month_said) or _number(month_said)
    if year is None:
        return None
    try:
        if month is None:
            return _moment(date(year, 1, 1)), _moment(date(year, 12, 31), end=True)
        if day is None:
            last = calendar.monthrange(year, month)[1]
            return _moment(date(year, month, 1)) - _DAY_SLACK, _moment(date(year, month, last), end=True) + _DAY_SLACK
        named = date(year, month, day)
    except ValueError:  # not on the calendar: nothing named
        return None
    if parts.get("before"):
        return _moment(named) - _BEFORE_SPAN[(parts.get("unit") or "week").lower()], _moment(named, end=True)
    return _moment(named) - _DAY_SLACK, _moment(named, end=True) + _DAY_SLACK


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _moment(day: date, *, end: bool = False) -> datetime:
    return datetime.combine(day, time.max if end else time.min, tzinfo=UTC)

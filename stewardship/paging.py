"""Cursor paging for the room's lists: newest first, one page past the cursor.

Rows are ordered by a field (descending) with the primary key breaking ties; the cursor is the
last row's field value and key. No COUNT and no OFFSET, so page 1,000 of a long table costs what
page 1 does. A cursor that does not parse starts from the top, it is never an error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest

SEPARATOR = "~"
MAX_CURSOR_CHARS = 120


@dataclass(frozen=True)
class Page:
    rows: list[Any]
    next_cursor: str | None


def page_after(queryset: QuerySet, *, cursor: str | None, size: int, field: str = "pk") -> Page:
    rows = queryset.order_by("-pk") if field == "pk" else queryset.order_by(f"-{field}", "-pk")
    position = _decode(queryset.model, field, cursor)
    if position is not None:
        value, key = position
        if field == "pk":
            rows = rows.filter(pk__lt=key)
        else:
            rows = rows.filter(Q(**{f"{field}__lt": value}) | Q(**{field: value, "pk__lt": key}))
    window = list(rows[: size + 1])
    more = len(window) > size
    return Page(rows=window[:size], next_cursor=_encode(window[size - 1], field) if more else None)


def _encode(row: Model, field: str) -> str:
    if field == "pk":
        return str(row.pk)
    value = getattr(row, field)
    return f"{value.isoformat() if hasattr(value, 'isoformat') else value}{SEPARATOR}{row.pk}"


def _decode(model: type[Model], field: str, cursor: str | None) -> tuple[Any, Any] | None:
    if not cursor or len(cursor) > MAX_CURSOR_CHARS:
        return None
    try:
        if field == "pk":
            key = model._meta.pk.to_python(cursor)  # type: ignore[union-attr]
            return (key, key) if key is not None else None
        raw_value, _, raw_key = cursor.rpartition(SEPARATOR)
        value = model._meta.get_field(field).to_python(raw_value)  # type: ignore[union-attr]
        key = model._meta.pk.to_python(raw_key)  # type: ignore[union-attr]
    except (ValidationError, ValueError, OverflowError):
        return None
    return (value, key) if value is not None and key is not None else None


def query_without_cursor(request: HttpRequest) -> str:
    """The current filters as a query string, for a list's "more" link to carry."""
    query = request.GET.copy()
    query.pop("cursor", None)
    return query.urlencode()

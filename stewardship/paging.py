"""Cursor paging for the room's lists: newest first by primary key, one page past the cursor.

No COUNT and no OFFSET, so page 1,000 of a long table costs what page 1 does; the cursor is the
last primary key shown, which the next page's link carries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet


@dataclass(frozen=True)
class Page:
    rows: list[Any]
    next_cursor: int | None


def cursor_parse(raw: str | None) -> int | None:
    """A cursor from the query string; anything but a plain positive integer starts from the top."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 18:
        return int(raw)
    return None


def page_after(queryset: QuerySet, *, cursor: int | None, size: int) -> Page:
    rows = queryset.order_by("-pk")
    if cursor is not None:
        rows = rows.filter(pk__lt=cursor)
    window = list(rows[: size + 1])
    more = len(window) > size
    return Page(rows=window[:size], next_cursor=window[size - 1].pk if more else None)

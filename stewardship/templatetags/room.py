"""Small formatting filters for the room's pages."""

from __future__ import annotations

import json
import math

from django import template
from django.urls import reverse
from django.utils.html import format_html

from helixsite.agents.usage import BOUNDS_MS
from helixsite.runtime.selectors import config_text

register = template.Library()


@register.filter
def ms(value: float | None) -> str:
    """A latency percentile: "≤ 15 ms" (the bucket's upper bound), "> 10 s", or "–" without calls."""
    if value is None:
        return "–"
    if math.isinf(value):
        return f"> {BOUNDS_MS[-1] // 1000} s"
    return f"≤ {value:g} ms" if value < 1000 else f"≤ {value / 1000:g} s"


@register.filter
def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    if value < 120:
        return f"{value:.0f} s"
    if value < 7200:
        return f"{value / 60:.0f} min"
    return f"{value / 3600:.1f} h"


@register.filter
def as_json(value: object) -> str:
    """A stored JSON value as JSON text (autoescaped by the template), keys in a stable order."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


@register.filter
def as_json_pretty(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=2, default=str)


@register.filter
def took(run: object) -> str:
    """How long something with ``started_at`` and ``finished_at`` took, or "running"."""
    started, finished = getattr(run, "started_at", None), getattr(run, "finished_at", None)
    if started is None or finished is None:
        return "running"
    elapsed_ms = (finished - started).total_seconds() * 1000
    return f"{elapsed_ms:.0f} ms" if elapsed_ms < 10_000 else f"{elapsed_ms / 1000:.1f} s"


@register.filter
def config_value(value: object) -> str:
    """A configuration value as the room shows it and its forms send it back."""
    return config_text(value)


@register.filter
def get_item(mapping: dict | None, key: str) -> object:
    return (mapping or {}).get(key)


@register.simple_tag
def suggests(kind: str, field_id: str) -> str:
    """The attributes that make an input offer the known names of ``kind`` as the steward types
    (its datalist ``suggest-<field_id>`` follows it): fetched on focus and as the text changes,
    without touching the page's address or the form's own target."""
    return format_html(
        'list="suggest-{}" autocomplete="off" hx-get="{}" hx-trigger="focus once, input changed delay:150ms" '
        'hx-target="#suggest-{}" hx-swap="innerHTML" hx-push-url="false" hx-sync="this:replace"',
        field_id,
        reverse("steward:suggest", args=[kind]),
        field_id,
    )

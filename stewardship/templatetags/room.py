"""Small formatting filters for the room's pages."""

from __future__ import annotations

import json
import math

from django import template

from helixsite.agents.usage import BOUNDS_MS

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
def starts_with(value: str, prefix: str) -> bool:
    """For the nav: the current path is within a section (``/steward/people/alice/`` in People)."""
    return str(value).startswith(str(prefix))

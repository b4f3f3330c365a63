"""A queryset the ORM builds and compiles once, then run as plain SQL with another value in one
placeholder's place: for statements asked on every call (the token, the caller's workspaces),
whose definition stays the ORM's while the per-call cost of building it goes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet


class CompiledQuery:
    """``build(placeholder)``'s SQL and parameters, compiled at first use; ``params(value)`` puts
    ``value`` wherever the compiled parameters hold ``placeholder``."""

    def __init__(self, build: Callable[[Any], QuerySet], placeholder: Any) -> None:
        self._build = build
        self._placeholder = placeholder
        self._compiled: tuple[str, tuple] | None = None
        self._lock = threading.Lock()

    @property
    def sql(self) -> str:
        return self._compile()[0]

    def params(self, value: Any) -> list:
        return [value if param == self._placeholder else param for param in self._compile()[1]]

    def _compile(self) -> tuple[str, tuple]:
        with self._lock:
            if self._compiled is None:
                sql, params = self._build(self._placeholder).query.sql_with_params()
                if self._placeholder not in params:
                    raise ValueError("the placeholder is not among the compiled query's parameters")
                self._compiled = sql, tuple(params)
            return self._compiled

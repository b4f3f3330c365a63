"""The database out of reach: telling it from a working database.

A pooled connection can go on working while the server refuses every new one, so only a
new connection says whether the database can be reached.
"""

from __future__ import annotations

from typing import Any

import psycopg


def reason(exc: BaseException) -> str:
    """The first line of the error: what the operator needs, without the driver's hint lines."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else exc.__class__.__name__


def connect_directly(params: dict[str, Any], *, timeout: int) -> psycopg.Connection:
    """A new connection with Django's connection ``params``, past any pool, giving up after
    ``timeout`` seconds (or the configured connect timeout, if shorter)."""
    configured = int(params.get("connect_timeout") or timeout)
    return psycopg.connect(**{**params, "connect_timeout": max(min(configured, timeout), 1)})

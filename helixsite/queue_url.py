"""HELIX_QUEUE_URL, the Redis server the worker cluster's queue lives on: checked when the
settings load (a typo stops start-up with one line), and shown without its password."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

import redis

SCHEMES = ("redis", "rediss")
FORM = "redis://[[user]:password@]host[:port][/db], or rediss:// for TLS"


def redis_url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as a Redis server's address (the end of a sentence), or None."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a port that is not a number
    except ValueError:
        return f"is not a URL with a host and a numeric port; use {FORM}"
    if parts.scheme not in SCHEMES:
        return f"is not a redis:// or rediss:// URL; use {FORM}"
    if not parts.hostname:
        return f"names no host; use {FORM}"
    database = parts.path.strip("/")
    if database and not database.isdigit():
        return f"names the database {database!r}: Redis databases are numbers"
    try:
        # Builds, without connecting, the connection redis-py would open: options in the query
        # that it does not take, or values it cannot read, fail here rather than at the first task.
        redis.ConnectionPool.from_url(url).make_connection()
    except (TypeError, ValueError) as exc:
        return f"has a query option redis-py does not take ({exc})"
    return None


def redis_url_shown(url: str) -> str:
    """``url`` with its password (in the user part or the query) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<not a URL>"
    query = parse_qsl(parts.query)
    if parts.password is None and not any(key == "password" for key, _ in query):
        return url
    netloc = parts.netloc
    if parts.password is not None:
        netloc = f"{parts.username or ''}:***@{netloc.rsplit('@', 1)[1]}"
    shown = [(key, "***" if key == "password" else value) for key, value in query]
    return parts._replace(netloc=netloc, query=urlencode(shown, safe="*")).geturl()


def redis_location(url: str) -> str:
    """Where the queue is, for the log and the room: ``host:port/db``, no credentials."""
    parts = urlsplit(url)
    host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
    return f"{host}:{parts.port or 6379}/{parts.path.strip('/') or '0'}"


class QueueUnreachable(Exception):
    """The Redis server of HELIX_QUEUE_URL cannot be reached; the message names where it is, never
    its password (``helixsite.task_broker`` raises it)."""

"""The API token format: ``hxt_<prefix>_<secret>``; stored as a SHA-256 digest."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_PREFIX = "hxt_"


def token_generate() -> tuple[str, str, str]:
    """Return (raw token, public prefix, digest)."""
    prefix = secrets.token_hex(4)
    raw = f"{TOKEN_PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
    return raw, prefix, token_digest(raw)


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()

"""Live reload: the layers applied onto this process's settings.

Code reads ``settings.HELIX_…`` when it runs, so writing the effective value onto the settings
object is enough for every reader. Each process remembers the stored state it applied (the
newest version number and the newest credential change) and compares it, at most every
``HELIX_CONFIG_CHECK_SECONDS``, with the database's: web requests (``RuntimeConfigMiddleware``),
MCP calls (``run_blocking``) and queue tasks (django-q2's ``pre_execute``) call ``runtime_refresh``.
A change is announced with ``config_changed`` (the providers rebuild themselves on it).
"""

from __future__ import annotations

import copy
import logging
import math
import os
import threading
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.dispatch import Signal

from helixsite.errors import InvalidInput
from helixsite.runtime.allowlist import KEYS
from helixsite.runtime.credentials import CREDENTIAL_NAMES, credentials_decrypted
from helixsite.runtime.models import ConfigVersion, Credential

logger = logging.getLogger(__name__)

# Sent with ``keys``: the names whose effective value changed in this process.
config_changed = Signal()

_lock = threading.Lock()
_startup: dict[str, Any] = {}
_applied: dict[str, Any] = {"state": None, "checked_at": -math.inf}
_STATE = f"""
    SELECT (SELECT MAX(number) FROM {ConfigVersion._meta.db_table}),
           (SELECT MAX(changed_at) FROM {Credential._meta.db_table})
"""


def startup_values_keep() -> None:
    """What the settings module gave each changeable name: the default, or the environment's value."""
    for name in (*KEYS, *CREDENTIAL_NAMES):
        _startup[name] = copy.deepcopy(getattr(settings, name, None))


def startup_value(name: str) -> Any:
    return _startup.get(name)


def environment_sets(name: str) -> bool:
    key = KEYS.get(name)
    if key is not None and not key.env:
        return False
    return bool(os.environ.get(name, "").strip())


def effective_value(name: str, patch: dict[str, Any]) -> Any:
    """``name``'s value under ``patch``: the environment wins, then the patch, then the default."""
    if environment_sets(name) or name not in patch:
        return _startup.get(name)
    return patch[name]


def stored_patch() -> dict[str, Any]:
    """The newest version's patched keys that are still allowlisted and valid."""
    return _patch_of(ConfigVersion.objects.newest_first().first())


def _patch_of(newest: ConfigVersion | None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, raw in (newest.values if newest else {}).items():
        key = KEYS.get(name)
        if key is None:
            continue
        try:
            values[name] = key.parse(raw)
        except InvalidInput:  # a stored value a newer rule refuses is skipped, not fatal
            logger.warning("The stored value of %s is no longer valid; its default applies.", name)
    return values


def stored_state() -> tuple[Any, ...]:
    """The newest version number and the newest credential change: one cheap query."""
    with connection.cursor() as cursor:
        cursor.execute(_STATE)
        return tuple(cursor.fetchone() or ())


def runtime_refresh(*, force: bool = False) -> None:
    """Apply the stored configuration if it changed since this process last looked."""
    if not (settings.HELIX_CONFIG_RELOAD or force):
        return
    now = time.monotonic()
    if not force and now - _applied["checked_at"] < settings.HELIX_CONFIG_CHECK_SECONDS:
        return
    try:
        state = stored_state()
        _applied["checked_at"] = now
        if state == _applied["state"] and not force:
            return
        with _lock:
            # The version applied is the one read here, not the number the state read before it: a
            # patch committed in between is applied now and logged under its own number.
            newest = ConfigVersion.objects.newest_first().first()
            _apply(_patch_of(newest), credentials_decrypted(), version=newest.number if newest else 0)
            _applied["state"] = state
    except DatabaseError:
        # Out of reach: keep what is applied and look again on the next call.
        return


def refresh_before_task(**_: Any) -> None:
    runtime_refresh()


def runtime_reset() -> None:
    """Back to the startup values, forgetting what was applied (tests)."""
    with _lock:
        _apply({}, {}, version=0)
        _applied.update(state=None, checked_at=-math.inf)


def _apply(values: dict[str, Any], secrets: dict[str, str], *, version: int) -> None:
    changed = set()
    layers = [(name, values) for name in KEYS] + [(name, secrets) for name in CREDENTIAL_NAMES]
    for name, stored in layers:
        wanted = effective_value(name, stored)
        if getattr(settings, name, None) != wanted:
            setattr(settings, name, copy.deepcopy(wanted))
            changed.add(name)
    if changed:
        names = ", ".join(sorted(changed))
        logger.info("Configuration version %s applied in process %s: %s.", version, os.getpid(), names)
        config_changed.send(sender=__name__, keys=frozenset(changed))

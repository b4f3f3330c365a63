"""Writes of the runtime configuration: a patch applied as a new version, an earlier version
restored as a new one, credentials set or cleared. Each call is one transaction; the process
that made the change applies it once it is committed, the others within the check interval."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction

from helixsite.errors import Conflict, InvalidInput, NotFound
from helixsite.runtime import credentials
from helixsite.runtime.allowlist import KEYS, key_named
from helixsite.runtime.models import ConfigVersion, Credential
from helixsite.runtime.reload import (
    effective_value,
    environment_sets,
    runtime_refresh,
    startup_value,
    stored_patch,
)

# Names in a submitted form that are not settings.
FORM_FIELDS = frozenset({"csrfmiddlewaretoken", "base_version"})
_LOCK_ID = 7_315_001  # serializes version numbering between concurrent applies


@dataclass(frozen=True)
class Proposal:
    """A reviewed change: the whole patch it leads to and, per key, effective before → after."""

    base_version: int
    values: dict[str, Any]
    diff: list[dict[str, Any]]


def version_current() -> int:
    newest = ConfigVersion.objects.newest_first().values_list("number", flat=True).first()
    return newest or 0


def _diff(current: dict[str, Any], proposed: dict[str, Any]) -> list[dict[str, Any]]:
    diff = []
    for name in KEYS:
        before, after = effective_value(name, current), effective_value(name, proposed)
        if before != after:
            source = "patch" if name in proposed else "default"
            diff.append({"key": name, "before": before, "after": after, "after_source": source})
    return diff


def config_propose(*, submitted: Mapping[str, str]) -> Proposal:
    """The patch a submitted form asks for, checked key by key. A value equal to the default
    takes the key out of the patch; a key the environment sets cannot be changed."""
    current = stored_patch()
    proposed = dict(current)
    for name, raw in submitted.items():
        if name in FORM_FIELDS:
            continue
        key = key_named(name)
        value = key.parse(raw)
        if environment_sets(name):
            if value != startup_value(name):
                raise InvalidInput(
                    f"{name} is set by the environment, which wins over a patch.",
                    code="set_by_environment",
                    field=name,
                )
            continue
        if value == startup_value(name):
            proposed.pop(name, None)
        else:
            proposed[name] = value
    return _proposal(current, proposed)


DEFAULTS_VERSION = 0
"""The version before any patch: restoring it takes every key out of the patch, so the first
patch can be undone like any other."""


def config_propose_restore(*, number: int) -> Proposal:
    """Restoring version ``number``: its patch again, for the keys still allowlisted; version 0,
    the defaults: no patch at all (the environment still wins where it sets a key)."""
    if number == DEFAULTS_VERSION:
        return _proposal(stored_patch(), {})
    version = ConfigVersion.objects.filter(number=number).first()
    if version is None:
        raise NotFound(f"There is no configuration version {number}.", field="number")
    restored = {name: value for name, value in version.values.items() if name in KEYS}
    return _proposal(stored_patch(), restored)


def _proposal(current: dict[str, Any], proposed: dict[str, Any]) -> Proposal:
    diff = _diff(current, proposed)
    if not diff:
        raise InvalidInput("Nothing would change: every value is already in force.", code="no_change")
    return Proposal(base_version=version_current(), values=proposed, diff=diff)


def base_version_parse(raw: str | None) -> int:
    try:
        number = int(raw or "")
    except ValueError:
        raise InvalidInput("base_version must be a whole number.", field="base_version") from None
    if number < 0:
        raise InvalidInput("base_version must not be negative.", field="base_version")
    return number


@transaction.atomic
def config_version_write(
    *, actor: User, proposal: Proposal, base_version: int, restored_from: int | None = None
) -> ConfigVersion:
    """The proposal as the new version, provided nobody applied another since it was reviewed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_ID])
    current = version_current()
    if current != base_version:
        raise Conflict(
            f"The configuration changed since this review (now version {current}); review the change again.",
            code="stale_review",
            field="base_version",
        )
    version = ConfigVersion.objects.create(
        number=current + 1,
        values=proposal.values,
        diff=proposal.diff,
        actor=actor,
        actor_name=actor.get_username(),
        restored_from=restored_from,
    )
    transaction.on_commit(lambda: runtime_refresh(force=True))
    return version


def credential_set(*, actor: User, name: str, secret: str) -> Credential:
    row = credentials.credential_set(actor=actor, name=name, secret=secret, from_environment=environment_sets(name))
    transaction.on_commit(lambda: runtime_refresh(force=True))
    return row


def credential_clear(*, actor: User, name: str) -> Credential:
    row = credentials.credential_clear(actor=actor, name=name)
    transaction.on_commit(lambda: runtime_refresh(force=True))
    return row

"""Reads of the runtime configuration: every registered setting with its value in this process
and where the value comes from, the versions, and the credentials' status."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from helixsite.runtime.allowlist import KEYS
from helixsite.runtime.credentials import CREDENTIAL_NAMES, CredentialStatus, credentials_status
from helixsite.runtime.models import ConfigVersion, ConfigVersionQuerySet
from helixsite.runtime.reload import effective_value, environment_sets, startup_value, stored_patch
from helixsite.settings.registry import SETTINGS, Setting, plain_text, setting_named

_SETTING_ALIASES = {"HELIX_SECRET_KEY": "SECRET_KEY", "HELIX_ALLOWED_HOSTS": "ALLOWED_HOSTS"}


@dataclass(frozen=True)
class EffectiveSetting:
    name: str
    section: str
    value: str
    source: str  # default, environment, patch, stored (a credential)
    meaning: str
    changeable: bool
    locked_reason: str | None
    secret: bool
    range: str = ""
    default: str = ""
    changed: bool = False  # set (by the environment or a patch) to another value than its default


def config_text(value: Any) -> str:
    """A value as the room shows it and its forms send it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=False)
    return "" if value is None else str(value)


def _value(entry: Setting) -> Any:
    """What a setting read at startup holds: the settings' value, or for one that lands in
    another setting's value (a database option, a worker option) what the environment or the
    registry says."""
    attribute = _SETTING_ALIASES.get(entry.name, entry.name)
    if hasattr(settings, attribute):
        return getattr(settings, attribute)
    return os.environ.get(entry.name, "").strip() or plain_text(entry.default_markdown())


def _source(name: str, patch: dict[str, Any], stored_secrets: set[str]) -> str:
    if environment_sets(name):
        return "environment"
    if name in patch:
        return "patch"
    if name in stored_secrets:
        return "stored"
    return "default"


def _locked_reason(name: str, source: str) -> str | None:
    if name not in KEYS:
        return "read at startup: change it in the environment and restart"
    if source == "environment":
        return "set by the environment, which wins over a patch"
    return None


def _effective(entry: Setting, patch: dict[str, Any], stored_secrets: set[str]) -> EffectiveSetting:
    source = _source(entry.name, patch, stored_secrets)
    value = effective_value(entry.name, patch) if entry.name in KEYS else _value(entry)
    shown = ("set" if value or source == "stored" else "unset") if entry.secret else config_text(value)
    locked = _locked_reason(entry.name, source)
    return EffectiveSetting(
        name=entry.name,
        section=entry.section,
        value=shown,
        source=source,
        meaning=plain_text(entry.meaning),
        changeable=locked is None,
        locked_reason=locked,
        secret=entry.secret,
        range=entry.range_text(),
        default=plain_text(entry.default_markdown()),
        changed=_changed(entry, source, value),
    )


def _changed(entry: Setting, source: str, value: Any) -> bool:
    """A secret is only ever set or unset, never said to differ; a default the settings module
    computes differs from whatever the environment sets instead."""
    if entry.secret or source not in ("environment", "patch"):
        return False
    default = entry.default
    if isinstance(default, tuple) and isinstance(value, list):
        value = tuple(value)
    return default is None or value != default


def config_effective() -> list[EffectiveSetting]:
    """Every registered setting, in the documentation's order, with its value and its source."""
    patch = stored_patch()
    stored_secrets = {s.name for s in credentials_status(environment=_credential_environment()) if s.is_set}
    return [_effective(entry, patch, stored_secrets) for entry in SETTINGS.values()]


def _credential_environment() -> dict[str, bool]:
    return {name: environment_sets(name) for name in CREDENTIAL_NAMES}


def config_credentials() -> list[CredentialStatus]:
    return credentials_status(environment=_credential_environment())


def config_versions() -> ConfigVersionQuerySet:
    return ConfigVersion.objects.newest_first()


def config_editable() -> list[dict[str, Any]]:
    """The allowlisted keys as the edit form shows them: group, value in force, why it is locked,
    and the registry's meaning and range."""
    patch, rows = stored_patch(), []
    for name, key in KEYS.items():
        from_env = environment_sets(name)
        rows.append(
            {
                "name": name,
                "group": key.group,
                "key": key,
                "value": config_text(effective_value(name, patch)),
                "default": config_text(startup_value(name)),
                "meaning": plain_text(setting_named(name).meaning),
                "range": setting_named(name).range_text(),
                "locked_reason": "set by the environment, which wins over a patch" if from_env else None,
            }
        )
    return rows

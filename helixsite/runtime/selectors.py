"""Reads of the runtime configuration: every documented setting with its value in this process
and where the value comes from, the versions, and the credentials' status."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from helixsite.runtime.allowlist import KEYS
from helixsite.runtime.credentials import CREDENTIAL_NAMES, CredentialStatus, credentials_status
from helixsite.runtime.documented import documented_settings
from helixsite.runtime.models import ConfigVersion, ConfigVersionQuerySet
from helixsite.runtime.reload import effective_value, environment_sets, startup_value, stored_patch

# Shown only as set or unset, wherever they come from (a URL may hold a password).
_SECRET = re.compile(r"(_KEY|_TOKEN|_PASSWORD)$|SECRET|DATABASE_URL|DATABASE_REPLICA_URLS")
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


def config_text(value: Any) -> str:
    """A value as the room shows it and its forms send it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=False)
    return "" if value is None else str(value)


def _value(name: str, documented_default: str) -> Any:
    attribute = _SETTING_ALIASES.get(name, name)
    if hasattr(settings, attribute):
        return getattr(settings, attribute)
    return os.environ.get(name, "").strip() or documented_default


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


def config_effective() -> list[EffectiveSetting]:
    patch = stored_patch()
    stored_secrets = {s.name for s in credentials_status(environment=_credential_environment()) if s.is_set}
    documented = list(documented_settings())
    listed = {entry.name for entry in documented}
    rows = []
    for entry in documented:
        source = _source(entry.name, patch, stored_secrets)
        secret = bool(_SECRET.search(entry.name))
        value = effective_value(entry.name, patch) if entry.name in KEYS else _value(entry.name, entry.default)
        shown = ("set" if value or source == "stored" else "unset") if secret else config_text(value)
        locked = _locked_reason(entry.name, source)
        rows.append(
            EffectiveSetting(entry.name, entry.section, shown, source, entry.meaning, locked is None, locked, secret)
        )
    sections = {KEYS[entry.name].group: entry.section for entry in documented if entry.name in KEYS}
    for name, key in KEYS.items():  # allowlisted settings the tables name in prose (the mode presets)
        if name not in listed:
            source = _source(name, patch, stored_secrets)
            value = config_text(effective_value(name, patch))
            section = sections.get(key.group, key.group)
            rows.append(EffectiveSetting(name, section, value, source, "", source != "environment", None, False))
    return rows


def _credential_environment() -> dict[str, bool]:
    return {name: environment_sets(name) for name in CREDENTIAL_NAMES}


def config_credentials() -> list[CredentialStatus]:
    return credentials_status(environment=_credential_environment())


def config_versions() -> ConfigVersionQuerySet:
    return ConfigVersion.objects.newest_first()


def config_editable() -> list[dict[str, Any]]:
    """The allowlisted keys as the edit form shows them: group, value in force, why it is locked."""
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
                "locked_reason": "set by the environment, which wins over a patch" if from_env else None,
            }
        )
    return rows

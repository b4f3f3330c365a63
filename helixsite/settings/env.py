"""Typed readers for settings that come from the environment.

Every reader raises ``ImproperlyConfigured`` naming the variable and what it
expected, so a typo stops startup with one clear line instead of a silent default.
The ``read_*`` readers take the default and bounds the registry gives the setting.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from helixsite.settings.registry import API_RATE, Setting, setting_named

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    return default if value is None else value


def env_optional_str(name: str) -> str | None:
    return _raw(name)


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use one of true/false/1/0/yes/no/on/off.")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    _check_range(name, number, minimum, maximum)
    return number


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None
    _check_range(name, number, minimum, maximum)
    return number


def env_choice(name: str, default: str, choices: Sequence[str]) -> str:
    value = _raw(name)
    if value is None:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of: {', '.join(choices)}.")
    return value


def env_path(name: str, default: Path) -> Path:
    value = _raw(name)
    return (Path(value).expanduser() if value is not None else default).resolve()


def env_list(name: str, default: Sequence[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def _check_range(name: str, number: float, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}.")


# --- readers of registered settings -------------------------------------------------------
# Each takes its default and bounds from helixsite.settings.registry, so the environment, the
# room's allowlist and the documentation hold one range. An override is for the few defaults and
# bounds that depend on another setting (the task retry on the task timeout, say).


def _registered(name: str, kind: str) -> Setting:
    setting = setting_named(name)
    if setting.kind != kind:
        raise LookupError(f"{name} is registered as {setting.kind}, not {kind}.")
    return setting


def _default(setting: Setting, override: Any) -> Any:
    default = setting.default if override is None else override
    if default is None:
        raise LookupError(f"{setting.name} has no registered default; the settings module must give it.")
    return default


def _int_bound(override: int | None, registered: float | None) -> int | None:
    if override is not None:
        return override
    return None if registered is None else int(registered)


def read_int(name: str, *, default: int | None = None, minimum: int | None = None, maximum: int | None = None) -> int:
    setting = _registered(name, "int")
    return env_int(
        name,
        _default(setting, default),
        minimum=_int_bound(minimum, setting.minimum),
        maximum=_int_bound(maximum, setting.maximum),
    )


def read_float(name: str) -> float:
    setting = _registered(name, "float")
    low, high = setting.minimum, setting.maximum
    return env_float(
        name,
        float(_default(setting, None)),
        minimum=None if low is None else float(low),
        maximum=None if high is None else float(high),
    )


def read_bool(name: str) -> bool:
    return env_bool(name, _default(_registered(name, "bool"), None))


def read_choice(name: str) -> str:
    setting = _registered(name, "choice")
    return env_choice(name, _default(setting, None), setting.choices)


def read_text(name: str, *, default: str | None = None) -> str:
    """A plain string (``text``) or a URL, which the environment gives as it is."""
    setting = setting_named(name)
    if setting.kind not in ("text", "url"):
        raise LookupError(f"{name} is registered as {setting.kind}, not text.")
    return env_str(name, _default(setting, default))


def read_rate(name: str) -> str:
    rate = env_str(name, _default(_registered(name, "rate"), None))
    if not API_RATE.fullmatch(rate):
        raise ImproperlyConfigured(f"{name}={rate!r} is not <count>/<second|minute|hour|day>.")
    return rate


def read_list(name: str, *, default: Sequence[str] | None = None) -> list[str]:
    return env_list(name, _default(_registered(name, "list"), default))


def read_path(name: str, *, default: Path) -> Path:
    _registered(name, "path")
    return env_path(name, default)


def read_optional(name: str) -> str | None:
    _registered(name, "optional")
    return env_optional_str(name)

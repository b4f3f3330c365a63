"""The settings the room may patch at run time, each with its type and range.

Only settings read at call time are offered (``patch_group`` in ``helixsite.settings.registry``):
a value baked into something built at import time (a serializer's ``max_length``, the body limit,
the database options) would not change without a restart. Types and ranges are the registry's,
the ones the environment is held to. The embedding provider, model and dimension are fixed by
the stored vectors and are never patched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from helixsite.errors import InvalidInput
from helixsite.settings.registry import (
    API_RATE,
    EMBEDDINGS,
    LLM,
    MODE_NAMES,
    PRESET_BOUNDS,
    Setting,
    patchable_settings,
)

_URL = re.compile(r"https?://[^\s/]+(/\S*)?")


@dataclass(frozen=True)
class Key:
    name: str
    group: str
    kind: str  # int, float, bool, choice, text, url, rate, modes
    minimum: float | None = None
    maximum: float | None = None
    choices: Sequence[str] = field(default_factory=tuple)
    env: bool = True  # False: a setting no environment variable sets (the mode presets)

    def parse(self, raw: Any) -> Any:
        """The typed value of ``raw`` (text from a form, or an already typed value from a stored
        version), or InvalidInput naming this key and what is wrong."""
        text = raw.strip() if isinstance(raw, str) else raw
        if text == "" or text is None:
            raise self.refusal("must not be empty; leave the key unpatched to use its default")
        value = _PARSERS[self.kind](self, text)
        self._check_range(value)
        return value

    def refusal(self, reason: str) -> InvalidInput:
        return InvalidInput(f"{self.name} {reason}.", code="invalid_value", field=self.name)

    def _check_range(self, value: Any) -> None:
        if self.kind not in ("int", "float"):
            return
        if self.minimum is not None and value < self.minimum:
            raise self.refusal(f"must be at least {_number(self.minimum)}")
        if self.maximum is not None and value > self.maximum:
            raise self.refusal(f"must be at most {_number(self.maximum)}")


def _number(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound)


def _int(key: Key, text: Any) -> int:
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise key.refusal("must be a whole number")
    try:
        return int(text)
    except ValueError:
        raise key.refusal("must be a whole number") from None


def _float(key: Key, text: Any) -> float:
    if isinstance(text, bool):
        raise key.refusal("must be a number")
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise key.refusal("must be a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise key.refusal("must be a finite number")
    return value


def _bool(key: Key, text: Any) -> bool:
    if isinstance(text, bool):
        return text
    lowered = str(text).lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise key.refusal("must be true or false")


def _choice(key: Key, text: Any) -> str:
    if text not in key.choices:
        raise key.refusal(f"must be one of: {', '.join(key.choices)}")
    return str(text)


def _text(key: Key, text: Any) -> str:
    if not isinstance(text, str) or len(text) > 200 or any(ch.isspace() for ch in text):
        raise key.refusal("must be one word of at most 200 characters")
    return text


def _url(key: Key, text: Any) -> str:
    if not isinstance(text, str) or len(text) > 500 or not _URL.fullmatch(text):
        raise key.refusal("must be an http:// or https:// URL")
    return text


def _rate(key: Key, text: Any) -> str:
    if not isinstance(text, str) or not API_RATE.fullmatch(text):
        raise key.refusal("must be <count>/<second|minute|hour|day>, e.g. 1200/minute")
    return text


def _modes(key: Key, text: Any) -> dict[str, dict[str, Any]]:
    try:
        value = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError:
        raise key.refusal("must be a JSON object") from None
    if not isinstance(value, dict) or sorted(value) != sorted(MODE_NAMES):
        raise key.refusal(f"must be a JSON object with exactly the modes {', '.join(MODE_NAMES)}")
    return {name: _preset(key, name, value[name]) for name in MODE_NAMES}


def _preset(key: Key, name: str, preset: Any) -> dict[str, Any]:
    if not isinstance(preset, dict) or sorted(preset) != sorted(PRESET_BOUNDS):
        raise key.refusal(f"mode {name} must have exactly {', '.join(PRESET_BOUNDS)}")
    checked: dict[str, Any] = {}
    for part, (kind, low, high) in PRESET_BOUNDS.items():
        number = preset[part]
        valid = isinstance(number, (int, float)) and not isinstance(number, bool)
        if not valid or (kind is int and not float(number).is_integer()) or not low <= number <= high:
            raise key.refusal(f"mode {name}: {part} must be a {kind.__name__} from {low} to {high}")
        checked[part] = kind(number)
    return checked


_PARSERS: dict[str, Callable[[Key, Any], Any]] = {
    "int": _int,
    "float": _float,
    "bool": _bool,
    "choice": _choice,
    "text": _text,
    "url": _url,
    "rate": _rate,
    "modes": _modes,
}


def _key(setting: Setting) -> Key:
    return Key(
        name=setting.name,
        group=setting.patch_group or "",
        kind=setting.kind,
        minimum=setting.minimum,
        maximum=setting.maximum,
        choices=setting.choices,
        env=setting.environment,
    )


# Derived from the registry, so a patch is held to the same range as the environment.
KEYS: dict[str, Key] = {setting.name: _key(setting) for setting in patchable_settings()}

# Keys whose change means the process's built providers must be built again.
PROVIDER_KEYS = frozenset(name for name, key in KEYS.items() if key.group in (LLM, EMBEDDINGS))


def key_named(name: str) -> Key:
    key = KEYS.get(name)
    if key is None:
        raise InvalidInput(f"{name} is not a setting the room may change.", code="unknown_key", field=name)
    return key

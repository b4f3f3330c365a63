"""The settings the room may patch at run time, each with its type and range.

Only settings read at call time are here: a value baked into something built at import time
(a serializer's ``max_length``, the body limit, the database options) would not change without a
restart, so it is not offered. Ranges are those of ``helixsite.settings.base``. The embedding
provider, model and dimension are fixed by the stored vectors and are never patched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from helixsite.errors import InvalidInput

MODE_NAMES = ("recent", "contextual", "deep", "full")
_RATE = re.compile(r"[1-9]\d*/(s|sec|second|m|min|minute|h|hour|d|day)")
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
    if not isinstance(text, str) or not _RATE.fullmatch(text):
        raise key.refusal("must be <count>/<second|minute|hour|day>, e.g. 1200/minute")
    return text


_PRESET_FIELDS: dict[str, tuple[type, float, float]] = {
    "limit": (int, 1, 100),
    "graph_depth": (int, 0, 5),
    "freshness_weight": (float, 0.0, 1.0),
    "min_score": (float, 0.0, 1.0),
}


def _modes(key: Key, text: Any) -> dict[str, dict[str, Any]]:
    try:
        value = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError:
        raise key.refusal("must be a JSON object") from None
    if not isinstance(value, dict) or sorted(value) != sorted(MODE_NAMES):
        raise key.refusal(f"must be a JSON object with exactly the modes {', '.join(MODE_NAMES)}")
    return {name: _preset(key, name, value[name]) for name in MODE_NAMES}


def _preset(key: Key, name: str, preset: Any) -> dict[str, Any]:
    if not isinstance(preset, dict) or sorted(preset) != sorted(_PRESET_FIELDS):
        raise key.refusal(f"mode {name} must have exactly {', '.join(_PRESET_FIELDS)}")
    checked: dict[str, Any] = {}
    for part, (kind, low, high) in _PRESET_FIELDS.items():
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

SEARCH, GATES, LIMITS, BUDGET, LLM, EMBEDDINGS, SWEEPS, BACKUPS = (
    "Read path",
    "Decision gates",
    "Limits",
    "Rate budget",
    "LLM",
    "Embeddings",
    "Sweeps and retention",
    "Backups",
)

KEYS: dict[str, Key] = {
    key.name: key
    for key in (
        Key("HELIX_SEARCH_DEFAULT_MODE", SEARCH, "choice", choices=MODE_NAMES),
        Key("HELIX_SEARCH_MODES", SEARCH, "modes", env=False),
        Key("HELIX_SEARCH_SEEDS", SEARCH, "choice", choices=("hybrid", "vector", "bm25")),
        Key("HELIX_SEARCH_FUSION", SEARCH, "choice", choices=("blend", "rrf")),
        Key("HELIX_SEARCH_BLEND_BM25_WEIGHT", SEARCH, "float", 0.0, 1.0),
        Key("HELIX_SEARCH_CONTEXT_WEIGHT", SEARCH, "float", 0.0, 1.0),
        Key("HELIX_SEARCH_NAMED_TIME_WEIGHT", SEARCH, "float", 0.0, 10.0),
        Key("HELIX_SEARCH_SPEAKER_WEIGHT", SEARCH, "float", 0.0, 10.0),
        Key("HELIX_SEARCH_BM25_NORMALIZATION", SEARCH, "choice", choices=("query", "terms", "max")),
        Key("HELIX_SEARCH_RRF_K", SEARCH, "int", 1, 10_000),
        Key("HELIX_SEARCH_VECTOR_K", SEARCH, "int", 5, 1000),
        Key("HELIX_SEARCH_BM25_K", SEARCH, "int", 5, 1000),
        Key("HELIX_SEARCH_BM25_K1", SEARCH, "float", 0.0, 10.0),
        Key("HELIX_SEARCH_BM25_B", SEARCH, "float", 0.0, 1.0),
        Key("HELIX_SEARCH_SEMANTIC_WEIGHT", SEARCH, "float", 0.0, 10.0),
        Key("HELIX_SEARCH_PPR_WEIGHT", SEARCH, "float", 0.0, 10.0),
        Key("HELIX_SEARCH_IMPORTANCE_WEIGHT", SEARCH, "float", 0.0, 10.0),
        Key("HELIX_SEARCH_FRESHNESS_DAYS", SEARCH, "float", 0.1, 36_500),
        Key("HELIX_SEARCH_EXPAND_FROM", SEARCH, "int", 0, 100),
        Key("HELIX_SEARCH_EXPAND_MAX", SEARCH, "int", 0, 5000),
        Key("HELIX_SEARCH_SUPERSEDED_PENALTY", SEARCH, "float", 0.0, 1.0),
        Key("HELIX_SEARCH_FLASHBACK_MAX", SEARCH, "int", 0, 20),
        Key("HELIX_CONTEXT_DEFAULT_TOKENS", SEARCH, "int", 16, 32_000),
        Key("HELIX_CONTEXT_MMR_LAMBDA", SEARCH, "float", 0.0, 1.0),
        Key("HELIX_ANSWER_MIN_SIMILARITY", SEARCH, "float", 0.0, 1.0),
        Key("HELIX_PROFILE_STATIC_LINES", SEARCH, "int", 1, 200),
        Key("HELIX_PROFILE_DYNAMIC_LINES", SEARCH, "int", 1, 200),
        Key("HELIX_PROFILE_RECENT_DAYS", SEARCH, "float", 1.0, 3650.0),
        Key("HELIX_DEDUP_DUPLICATE_THRESHOLD", GATES, "float", 0.5, 1.0),
        Key("HELIX_DEDUP_RELATED_THRESHOLD", GATES, "float", 0.0, 1.0),
        Key("HELIX_REWRITE_MIN_CONFIDENCE", GATES, "float", 0.0, 1.0),
        Key("HELIX_CONVERSATION_GAP_SECONDS", GATES, "int", 0, 7 * 24 * 3600),
        Key("HELIX_RAW_SOURCE_MIN_CHARS", GATES, "int", 1, 1_000_000),
        Key("HELIX_RULE_PROPOSAL_VERDICTS", GATES, "int", 2, 100),
        Key("HELIX_LEARNED_RULES_AUTO_SETTLE", GATES, "bool"),
        Key("HELIX_MAX_MESSAGE_BYTES", LIMITS, "int", 256, 16 * 1024 * 1024),
        Key("HELIX_MAX_METADATA_BYTES", LIMITS, "int", 64, 16 * 1024 * 1024),
        Key("HELIX_MAX_FACTS_PER_CALL", LIMITS, "int", 1, 100),
        Key("HELIX_LLM_CALLS_PER_MESSAGE", LIMITS, "int", 0, 10),
        Key("HELIX_PENDING_OUTCOMES_MAX", LIMITS, "int", 1, 500),
        Key("HELIX_PRESENCE_MAX_INSTANCES", LIMITS, "int", 1, 100_000),
        Key("HELIX_PRESENCE_ROSTER_MAX", LIMITS, "int", 1, 10_000),
        Key("HELIX_THINK_MAX_OPEN_SESSIONS", LIMITS, "int", 1, 1000),
        Key("HELIX_THINK_RECALL_LIMIT", LIMITS, "int", 1, 20),
        Key("HELIX_API_RATE", BUDGET, "rate"),
        Key("HELIX_LLM", LLM, "choice", choices=("none", "openai")),
        Key("HELIX_LLM_MODEL", LLM, "text"),
        Key("HELIX_LLM_BASE_URL", LLM, "url"),
        Key("HELIX_LLM_TIMEOUT", LLM, "float", 0.1, 600.0),
        Key("HELIX_LLM_MAX_RETRIES", LLM, "int", 0, 10),
        Key("HELIX_LLM_JSON_MODE", LLM, "bool"),
        Key("HELIX_LLM_TEMPERATURE", LLM, "float", 0.0, 2.0),
        Key("HELIX_EMBEDDING_BASE_URL", EMBEDDINGS, "url"),
        Key("HELIX_EMBEDDING_TIMEOUT", EMBEDDINGS, "float", 0.1, 600.0),
        Key("HELIX_EMBEDDING_MAX_RETRIES", EMBEDDINGS, "int", 0, 10),
        Key("HELIX_EMBEDDING_BATCH_SIZE", EMBEDDINGS, "int", 1, 2048),
        Key("HELIX_NOTICE_RESURFACE_HOURS", SWEEPS, "float", 0.0, 24 * 365),
        Key("HELIX_OUTBOX_RETENTION_DAYS", SWEEPS, "float", 0.0, 3650),
        Key("HELIX_PRESENCE_STALE_SECONDS", SWEEPS, "int", 10, 7 * 24 * 3600),
        Key("HELIX_PRESENCE_RETENTION_DAYS", SWEEPS, "int", 0, 3650),
        Key("HELIX_THINK_RETENTION_HOURS", SWEEPS, "int", 1, 24 * 365),
        Key("HELIX_EXPIRY_GRACE_DAYS", SWEEPS, "float", 0.0, 3650.0),
        Key("HELIX_DECAY_AFTER_DAYS", SWEEPS, "float", 0.0, 36500.0),
        Key("HELIX_DECAY_MAX_IMPORTANCE", SWEEPS, "float", 0.0, 1.0),
        Key("HELIX_BACKUP_INTERVAL_HOURS", BACKUPS, "float", 0.0, 24 * 365),
        Key("HELIX_BACKUP_KEEP", BACKUPS, "int", 1, 1000),
    )
}

# Keys whose change means the process's built providers must be built again.
PROVIDER_KEYS = frozenset(name for name, key in KEYS.items() if key.group in (LLM, EMBEDDINGS))


def key_named(name: str) -> Key:
    key = KEYS.get(name)
    if key is None:
        raise InvalidInput(f"{name} is not a setting the room may change.", code="unknown_key", field=name)
    return key

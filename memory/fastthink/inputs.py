"""Checks of the FastThink tools' arguments: each bad value is an InvalidInput naming its field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, overload

from django.conf import settings
from django.contrib.auth.models import User

from helixsite.errors import Forbidden, InvalidInput
from memory.fastthink.models import ThoughtType
from rbac.actors import Actor, SystemActor
from rbac.policy import is_active

# Types an agent may add; a conclusion is made by think_conclude, evidence by think_recall.
ADDABLE_TYPES = (ThoughtType.REASONING, ThoughtType.HYPOTHESIS, ThoughtType.OBSERVATION, ThoughtType.QUESTION)
MAX_RECALL_LIMIT = 20
MAX_INCOMPLETE_LIMIT = 50


def require_principal(actor: Actor) -> User:
    """Sessions are bound to a principal: the shell's system actor has none to bind to."""
    if not is_active(actor) or isinstance(actor, SystemActor) or actor.pk is None:
        raise Forbidden("Only an active principal can think.", details={"action": "think"})
    return actor


def session_name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 200:
        raise InvalidInput("session_id must be a non-empty string of at most 200 characters.", field="session_id")
    return value.strip()


def text(value: Any, *, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{field} must be a non-empty string.", code="empty", field=field)
    stripped = value.strip()
    limit = settings.HELIX_THINK_MAX_CHARS
    if len(stripped) > limit:
        raise InvalidInput(f"{field} is longer than {limit} characters.", code="too_long", field=field)
    return stripped


def query(value: Any) -> str:
    """Only emptiness is checked here, before the session is touched; the search checks the rest."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("query must not be empty.", code="empty_query", field="query")
    return value


def thought_type(value: Any) -> str:
    if value not in ADDABLE_TYPES:
        raise InvalidInput(
            f"thought_type must be one of: {', '.join(ADDABLE_TYPES)}.",
            code="unknown_thought_type",
            field="thought_type",
        )
    return str(value)


@overload
def thought_index(value: Any, *, field: str, required: Literal[True]) -> int: ...
@overload
def thought_index(value: Any, *, field: str, required: bool) -> int | None: ...
def thought_index(value: Any, *, field: str, required: bool) -> int | None:
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"{field} must be the index of a thought (a whole number ≥ 0).", field=field)
    return value


def thought_indices(value: Any) -> list[int]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidInput("supporting_idx must be a list of thought indices.", field="supporting_idx")
    return sorted({thought_index(i, field="supporting_idx", required=True) for i in value})


@overload
def owner(value: Any, *, required: Literal[True]) -> str: ...
@overload
def owner(value: Any, *, required: bool) -> str | None: ...
def owner(value: Any, *, required: bool) -> str | None:
    if value in (None, "") and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 200:
        raise InvalidInput("user_id must be a non-empty string of at most 200 characters.", field="user_id")
    return value.strip()


def recall_limit(value: Any) -> int:
    if value is None:
        return settings.HELIX_THINK_RECALL_LIMIT
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RECALL_LIMIT:
        raise InvalidInput(f"limit must be from 1 to {MAX_RECALL_LIMIT}.", code="out_of_range", field="limit")
    return value


def incomplete_limit(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_INCOMPLETE_LIMIT:
        raise InvalidInput(f"limit must be from 1 to {MAX_INCOMPLETE_LIMIT}.", code="out_of_range", field="limit")
    return value

"""What the FastThink services check of their arguments beyond the tools' input serializers
(types, lengths and ranges are checked there, once): emptiness after trimming, a thought's
length against HELIX_THINK_MAX_CHARS, the thought types an agent may add. Each refusal is an
InvalidInput naming its field."""

from __future__ import annotations

from typing import Any, Literal, overload

from django.conf import settings
from django.contrib.auth.models import User

from helixsite.errors import Forbidden, InvalidInput
from memory.fastthink.models import ThoughtType
from rbac.actors import Actor, SystemActor
from rbac.policy import is_active

# Types an agent may add; a conclusion is made by think_conclude, evidence by think_recall.
ADDABLE_TYPES = (ThoughtType.REASONING, ThoughtType.HYPOTHESIS, ThoughtType.OBSERVATION, ThoughtType.QUESTION)


def require_principal(actor: Actor) -> User:
    """Sessions are bound to a principal: the shell's system actor has none to bind to."""
    if not is_active(actor) or isinstance(actor, SystemActor) or actor.pk is None:
        raise Forbidden("Only an active principal can think.", details={"action": "think"})
    return actor


def session_name(value: str) -> str:
    if not value.strip():
        raise InvalidInput("session_id must not be empty.", field="session_id")
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
def owner(value: str | None, *, required: Literal[True]) -> str: ...
@overload
def owner(value: str | None, *, required: bool) -> str | None: ...
def owner(value: str | None, *, required: bool) -> str | None:
    if value in (None, "") and not required:
        return None
    if value is None or not value.strip():
        raise InvalidInput("user_id must not be empty.", field="user_id")
    return value.strip()

"""What one add_conversation call asks for: an exchange of messages, in order, checked at the door.

Each message is one turn: its content, who said it (``role`` user, assistant or system, or a
``speaker`` by name, as in a transcript of people talking), and optionally its event time and
metadata. A turn is stored as a single add_memory call would store it: a speaker's or the
assistant's words carry their label ("Caroline: …", "assistant: …"), the user's own do not. Every
refusal names the message's index and field (``messages[3].content``) and comes before anything
is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from helixsite.errors import InvalidInput
from memory.ingest.extract import Conversation
from memory.ingest.request import conversation_parse, event_time_parse, message_check, metadata_check

ROLES = ("user", "assistant", "system")
KEYS = frozenset({"role", "speaker", "content", "occurred_at", "metadata"})
SPEAKER_CHARS = 100


@dataclass(frozen=True)
class Turn:
    message: str  # as stored: with its speaker's label when someone other than the user said it
    role: str
    occurred_at: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def messages_check(value: Any) -> list[Turn]:
    """The checked turns of ``messages``, or InvalidInput naming the first bad one's index and field."""
    if not isinstance(value, list) or not value:
        raise InvalidInput("messages must be a non-empty list of {role, content} objects.", field="messages")
    most = settings.HELIX_MAX_MESSAGES_PER_CALL
    if len(value) > most:
        raise InvalidInput(
            f"messages holds {len(value)} messages; at most {most} are taken in one call.",
            code="too_many_messages",
            field="messages",
        )
    turns = [_turn(index, item) for index, item in enumerate(value)]
    total = sum(len(t.message.encode()) for t in turns)
    if total > settings.HELIX_MAX_CONVERSATION_BYTES:
        raise InvalidInput(
            f"the messages hold {total} bytes; at most {settings.HELIX_MAX_CONVERSATION_BYTES} are taken in one call.",
            code="conversation_too_large",
            field="messages",
        )
    return turns


def turns_payload(turns: list[Turn]) -> list[dict[str, Any]]:
    """JSON for a buffered write; ``turns_from_payload`` reads it back."""
    return [
        {
            "message": t.message,
            "role": t.role,
            "occurred_at": t.occurred_at.isoformat() if t.occurred_at else None,
            "metadata": t.metadata,
        }
        for t in turns
    ]


def turns_from_payload(payload: list[dict[str, Any]]) -> list[Turn]:
    return [
        Turn(
            message=item["message"],
            role=item["role"],
            occurred_at=datetime.fromisoformat(item["occurred_at"]) if item.get("occurred_at") else None,
            metadata=item.get("metadata") or {},
        )
        for item in payload
    ]


def conversation_before(turns: list[Turn], index: int, given: Conversation) -> Conversation:
    """What message ``index`` is said after: the earlier turns of its session in this call (the
    call's ``context`` before the first of them when the session runs from the call's start). A
    session ends where two turns' event times lie more than HELIX_CONVERSATION_GAP_SECONDS apart,
    as it does between separate add_memory calls (``memory.ingest.preceding``)."""
    start = index
    while start > 0 and _same_session(turns[start - 1], turns[start]):
        start -= 1
    earlier = [{"role": _role(t), "content": t.message} for t in turns[start:index]]
    if start > 0:
        if not earlier:
            return Conversation()  # a new session: what was said before it is no context
        return _conversation(earlier)
    if not earlier:
        return given
    return _conversation([*given.turns, *earlier], given.previous_assistant)


def _conversation(turns: list[dict[str, str]], previous_assistant: str = "") -> Conversation:
    """The earlier turns as a call's ``context`` would give them (``conversation_parse``: the same
    bounds), the caller's last assistant words kept when none of them is the assistant's."""
    conversation = conversation_parse({"turns": turns})
    if conversation.previous_assistant or not previous_assistant:
        return conversation
    return Conversation(previous_assistant=previous_assistant, turns=conversation.turns)


def _role(turn: Turn) -> str:
    return "assistant" if turn.role == "assistant" else "user"


def _same_session(before: Turn, after: Turn) -> bool:
    gap = settings.HELIX_CONVERSATION_GAP_SECONDS
    if gap <= 0:
        return False
    if before.occurred_at is None or after.occurred_at is None:
        return True
    return abs(after.occurred_at - before.occurred_at) <= timedelta(seconds=gap)


def _turn(index: int, item: Any) -> Turn:
    where = f"messages[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object with content.", field=where, details={"index": index})
    unknown = sorted(set(item) - KEYS)
    if unknown:
        raise InvalidInput(
            f"{where} has an unknown field: {unknown[0]!r}.",
            code="unknown_parameter",
            field=f"{where}.{unknown[0]}",
            details={"index": index},
        )
    with _at(index, "role"):
        role = item.get("role") or "user"
        if role not in ROLES:
            raise InvalidInput(f"role must be one of {', '.join(ROLES)}.")
    with _at(index, "speaker"):
        speaker = _speaker(item.get("speaker"), role)
    with _at(index, "content"):
        content = item.get("content")
        if not isinstance(content, str):
            raise InvalidInput("content must be a string.")
        message = message_check(_labelled(message_check(content), speaker or (role if role != "user" else None)))
    with _at(index, "occurred_at"):
        moment = item.get("occurred_at")
        if moment is not None and not isinstance(moment, str):
            raise InvalidInput("occurred_at must be an RFC 3339 date-time or YYYY-MM-DD.")
        occurred_at = event_time_parse(moment, field=f"{where}.occurred_at")
    with _at(index, "metadata"):
        metadata = metadata_check(item.get("metadata"))
    return Turn(message=message, role=role, occurred_at=occurred_at, metadata=metadata)


def _speaker(value: Any, role: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("speaker must be a name.")
    if role != "user":
        raise InvalidInput(f"a {role}'s message is labelled by its role: give a speaker or that role, not both.")
    name = value.strip()
    if len(name) > SPEAKER_CHARS or any(c in name for c in ":\n\r"):
        raise InvalidInput(
            f"speaker must be a name of at most {SPEAKER_CHARS} characters, without ':' or a line break."
        )
    return name


def _labelled(content: str, label: str | None) -> str:
    """``content`` as a transcript's line of ``label``; content that already opens with the label keeps it."""
    if label is None or content.lower().startswith(f"{label.lower()}:"):
        return content
    return f"{label}: {content}"


@contextmanager
def _at(index: int, name: str) -> Iterator[None]:
    """Refusals inside name ``messages[index].name`` and carry the index."""
    try:
        yield
    except InvalidInput as exc:
        where = f"messages[{index}].{name}"
        message = exc.message if exc.message.startswith(where) else f"{where}: {exc.message}"
        raise InvalidInput(message, code=exc.code, field=where, details={"index": index}) from None

"""What one add_memory call asks for, and the checks its parts pass at the door (the tool's input
serializer): a message that is not empty and not too large, metadata that is a small JSON
object, an event time, the conversation before the message. Checked once; the pipeline and the
worker trust an ``AddRequest``."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from helixsite.errors import InvalidInput
from memory.event_time import moment_parse
from memory.ingest.extract import Conversation


@dataclass(frozen=True)
class AddRequest:
    user_id: str
    message: str
    metadata: dict[str, Any] = field(default_factory=dict)
    occurred_at: datetime | None = None
    agent_id: str = ""
    conversation: Conversation = field(default_factory=Conversation)
    extract: bool = True
    expires_at: datetime | None = None  # the memories this call writes are recalled until then
    # For writers inside the server: FastThink commits a conclusion as source think, type conclusion.
    source: str | None = None
    memory_type: str | None = None

    def as_payload(self) -> dict[str, Any]:
        """JSON for a buffered write; ``from_payload`` reads it back."""
        return {
            "message": self.message,
            "metadata": self.metadata,
            "occurred_at": self.occurred_at.isoformat() if self.occurred_at else None,
            "agent_id": self.agent_id,
            "context": asdict(self.conversation),
            "extract": self.extract,
            "expires_at": self.expires_at.isoformat() if self.expires_at else None,
        }

    @classmethod
    def from_payload(cls, *, user_id: str, payload: dict[str, Any]) -> AddRequest:
        """A buffered write's request (also one stored before the payload held checked values)."""
        return cls(
            user_id=user_id,
            message=payload["message"].strip(),
            metadata=payload.get("metadata") or {},
            occurred_at=event_time_parse(payload.get("occurred_at")),
            agent_id=payload.get("agent_id") or "",
            conversation=conversation_parse(payload.get("context")),
            extract=bool(payload.get("extract", True)),
            expires_at=datetime.fromisoformat(payload["expires_at"]) if payload.get("expires_at") else None,
        )


def message_check(value: str) -> str:
    if not value.strip():
        raise InvalidInput("message must not be empty.", code="empty_message", field="message")
    if len(value.encode()) > settings.HELIX_MAX_MESSAGE_BYTES:
        raise InvalidInput(
            f"message is larger than {settings.HELIX_MAX_MESSAGE_BYTES} bytes.",
            code="message_too_large",
            field="message",
        )
    return value.strip()


def metadata_check(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInput("metadata must be a JSON object.", field="metadata")
    try:
        size = len(json.dumps(value).encode())
    except (TypeError, ValueError):
        raise InvalidInput("metadata must be a JSON object.", field="metadata") from None
    if size > settings.HELIX_MAX_METADATA_BYTES:
        raise InvalidInput(
            f"metadata is larger than {settings.HELIX_MAX_METADATA_BYTES} bytes.",
            code="metadata_too_large",
            field="metadata",
        )
    return value


def event_time_parse(value: datetime | str | None, *, field: str = "occurred_at") -> datetime | None:
    if value is None or value == "":
        return None
    return moment_parse(value.isoformat() if isinstance(value, datetime) else value, field=field)


def expiry_parse(expires_at: str | None, ttl: int | None, *, now: datetime) -> datetime | None:
    """``expires_at`` (RFC 3339) or ``ttl`` (seconds from now), not both; a moment still to come."""
    if expires_at not in (None, "") and ttl is not None:
        raise InvalidInput("Give expires_at or ttl, not both.", code="conflicting_expiry", field="ttl")
    if ttl is not None:
        return now + timedelta(seconds=ttl)
    if expires_at in (None, ""):
        return None
    moment = moment_parse(expires_at, field="expires_at")
    if moment <= now:
        raise InvalidInput("expires_at must be in the future.", code="expiry_in_past", field="expires_at")
    return moment


def conversation_parse(context: Any) -> Conversation:
    """``{turns: [{role, content}], previous_assistant?}``, a list of turns, or the assistant's last words."""
    if context in (None, "", [], {}):
        return Conversation()
    if isinstance(context, str):
        return Conversation(previous_assistant=context[:4000])
    turns = context.get("turns", []) if isinstance(context, dict) else context
    if not isinstance(turns, list) or not all(isinstance(t, dict) and isinstance(t.get("content"), str) for t in turns):
        raise InvalidInput("context.turns must be a list of {role, content} objects.", field="context")
    turns = [{"role": str(t.get("role", "user"))[:20], "content": t["content"][:4000]} for t in turns[-20:]]
    previous = context.get("previous_assistant") if isinstance(context, dict) else None
    if previous is None:
        previous = next((t["content"] for t in reversed(turns) if t["role"] == "assistant"), "")
    if not isinstance(previous, str):
        raise InvalidInput("context.previous_assistant must be a string.", field="context")
    return Conversation(previous_assistant=previous[:4000], turns=turns)

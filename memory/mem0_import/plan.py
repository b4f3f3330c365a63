"""Stage 2: a mem0 memory as what is written here.

The ids are read as the mem0 door reads them (``helixsite.mem0.shapes``, docs/agents.md "Coming
from mem0"): the owner is ``user_id``, else the first of ``agent_id``, ``app_id``, ``run_id``;
``agent_id`` is the agent instance that wrote it; ``run_id`` and ``app_id`` are metadata keys. The
rest of what mem0 keeps with a memory is its metadata, but for mem0's own bookkeeping (its text,
hash, lemmas, times, owner ids, expiry) and the role ``user`` (the owner's own words, which the door
stores without a label either). The memory keeps mem0's id as its own.

Its history becomes steps: the ADD (its first text, at its creation), each UPDATE (the new text, at
its time) and, for a memory mem0 deleted, the DELETE. mem0 keeps no owner, agent or metadata of a
deleted memory, only its texts, times, role and speaker: it is imported under ``deleted_owner``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from helixsite.errors import InvalidInput
from memory.event_time import moment_parse
from memory.mem0_import.store import StoreEntry

OWNER_IDS = ("user_id", "agent_id", "app_id", "run_id")  # in the door's order (shapes.IDS)
BOOKKEEPING = frozenset(
    {"data", "hash", "text_lemmatized", "created_at", "updated_at", "user_id", "agent_id", "expiration_date"}
)
ID_CHARS = 200  # Memory.user_id and agent_id
# The id of a memory whose mem0 id is no UUID (mem0 makes UUIDs; a store filled by hand may not).
ID_NAMESPACE = uuid.UUID("5f0c8f54-6f1e-4d7e-9a55-6d656d30696d")


@dataclass(frozen=True)
class Step:
    event: str  # ADD, UPDATE or DELETE
    text: str  # the memory's text after it (a DELETE leaves it as it was)
    at: datetime
    event_id: str | None  # mem0's history row, if there was one


@dataclass(frozen=True)
class Planned:
    memory_id: uuid.UUID
    owner: str
    agent_id: str
    metadata: dict[str, Any]
    speaker: str | None  # who said it, when not the owner: mem0's actor_id, or the assistant
    expires_at: datetime | None
    steps: list[Step]  # the ADD first
    updated_at: datetime | None = None  # the store's last change of a memory it holds, history or not

    @property
    def text(self) -> str:
        """The text it ends with."""
        return self.steps[-1].text

    @property
    def deleted(self) -> bool:
        return self.steps[-1].event == "DELETE"

    @property
    def revisions(self) -> int:
        return sum(step.event == "UPDATE" for step in self.steps)


def memory_plan(stored: StoreEntry, *, deleted_owner: str, now: datetime) -> Planned | str:
    """What to write for ``stored``, or why it is left out."""
    steps = _steps(stored, now)
    if not steps:
        return "no text"
    payload = stored.payload or {}
    owner = _owner(payload) if stored.payload is not None else deleted_owner
    agent_id = str(payload.get("agent_id") or "")
    if not owner or len(owner) > ID_CHARS or len(agent_id) > ID_CHARS:
        return f"an owner or agent id longer than {ID_CHARS} characters"
    origin = payload if stored.payload is not None else _said_by(stored.events)
    memory_id, metadata = _identity(stored.mem0_id, _metadata(origin))
    return Planned(
        memory_id=memory_id,
        owner=owner,
        agent_id=agent_id,
        metadata=metadata,
        speaker=_speaker(origin),
        expires_at=_expiry(payload.get("expiration_date")),
        steps=steps,
        updated_at=_moment(payload.get("updated_at")),
    )


def _steps(stored: StoreEntry, now: datetime) -> list[Step]:
    events = sorted(
        (e for e in stored.events if e.get("event") in ("ADD", "UPDATE", "DELETE")),
        key=lambda e: _event_time(e) or now,
    )
    payload = stored.payload or {}
    text = _first_text(events, stored.payload)
    if text is None:
        return []
    added = next((e for e in events if e["event"] == "ADD"), None)
    steps = [Step("ADD", text, _created(added, events, payload) or now, added["id"] if added else None)]
    for event in events:
        # A clock that went back leaves a step at the time of the one before it: history stays in order.
        at = max(_event_time(event) or steps[-1].at, steps[-1].at)
        if event["event"] == "UPDATE":
            steps.append(Step("UPDATE", _text(event.get("new_memory")) or steps[-1].text, at, event["id"]))
        elif event["event"] == "DELETE" and stored.payload is None:
            steps.append(Step("DELETE", steps[-1].text, at, event["id"]))
            break
    if stored.payload is None and steps[-1].event != "DELETE":  # gone from the store all the same
        steps.append(Step("DELETE", steps[-1].text, steps[-1].at, None))
    held = _text(payload.get("data"))
    if held is not None and held != steps[-1].text:  # a history that stops short of what the store holds
        at = max(_moment(payload.get("updated_at")) or steps[-1].at, steps[-1].at)
        steps.append(Step("UPDATE", held, at, None))
    return steps


def _created(added: dict[str, Any] | None, events: list[dict[str, Any]], payload: dict[str, Any]) -> datetime | None:
    """When it was added: its ADD's time, else the store's ``created_at``, else its first event's."""
    return (
        (_event_time(added) if added else None)
        or _moment(payload.get("created_at"))
        or (_event_time(events[0]) if events else None)
    )


def _first_text(events: list[dict[str, Any]], payload: dict[str, Any] | None) -> str | None:
    added = next((e for e in events if e["event"] == "ADD"), None)
    if added is not None:
        return _text(added.get("new_memory"))
    if events:  # a history that starts later: the first change says what it was
        return _text(events[0].get("old_memory"))
    return _text((payload or {}).get("data"))


def _owner(payload: dict[str, Any]) -> str:
    return next((str(payload[key]) for key in OWNER_IDS if payload.get(key) not in (None, "")), "")


def _said_by(events: list[dict[str, Any]]) -> dict[str, Any]:
    """What mem0's history keeps of who said a deleted memory."""
    first = events[0] if events else {}
    return {key: first[key] for key in ("role", "actor_id") if first.get(key)}


def _metadata(origin: dict[str, Any]) -> dict[str, Any]:
    kept = {key: value for key, value in origin.items() if key not in BOOKKEEPING}
    if kept.get("role") == "user":
        del kept["role"]
    return kept


def _identity(mem0_id: str, metadata: dict[str, Any]) -> tuple[uuid.UUID, dict[str, Any]]:
    """The memory's id (mem0's), and its metadata (holding mem0's id too when that is no UUID)."""
    try:
        return uuid.UUID(mem0_id), metadata
    except ValueError:
        return uuid.uuid5(ID_NAMESPACE, mem0_id), {**metadata, "mem0_id": mem0_id}


def _speaker(origin: dict[str, Any]) -> str | None:
    if isinstance(origin.get("actor_id"), str) and origin["actor_id"]:
        return origin["actor_id"][:100]
    return "assistant" if origin.get("role") == "assistant" else None


def _expiry(value: Any) -> datetime | None:
    """mem0's expiration_date (a day) as the door reads it: the end of that day, UTC."""
    return _moment(f"{value}T23:59:59Z") if isinstance(value, str) and len(value) == 10 else None


def _event_time(event: dict[str, Any]) -> datetime | None:
    """When a history event happened: mem0 keeps the memory's creation in every event's
    ``created_at`` and the event's own time in ``updated_at`` (absent from some ADDs)."""
    return _moment(event.get("updated_at")) or _moment(event.get("created_at"))


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return moment_parse(value, field="created_at")
    except InvalidInput:
        return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None

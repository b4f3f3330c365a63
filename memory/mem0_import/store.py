"""Stage 1: read a mem0 OSS store through mem0's own library: its config model (``MemoryConfig``,
which ``Memory.from_config`` validates with), the vector store class mem0 uses for the provider the
config names, and its SQLite history database. Every memory the vector store holds is read (a
listing without filters, whoever it belongs to), and every memory the history names: those mem0
deleted are there alone.

mem0's LLM and embedder are not started: nothing is asked of them (the import embeds with this
installation's model), so their credentials need not be at hand. Nothing is written to the store.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from helixsite.errors import InvalidInput

# mem0 reports usage to PostHog unless told not to, reading this once, when it is first imported.
os.environ.setdefault("MEM0_TELEMETRY", "False")

from mem0.configs.base import MemoryConfig  # type: ignore[import-untyped]  # noqa: E402
from mem0.memory.storage import SQLiteManager  # type: ignore[import-untyped]  # noqa: E402
from mem0.utils.factory import VectorStoreFactory  # type: ignore[import-untyped]  # noqa: E402

# Vector stores list at most what they are asked for, without paging: the listing asks for this
# many, then four times as many until it gets fewer than it asked for.
FIRST_LISTING = 1000
# The columns and the order of mem0's own SQLiteManager.get_history, for every memory at once.
HISTORY_QUERY = (
    "SELECT id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role "
    "FROM history ORDER BY created_at ASC, DATETIME(updated_at) ASC"
)
HISTORY_COLUMNS = (
    "id",
    "memory_id",
    "old_memory",
    "new_memory",
    "event",
    "created_at",
    "updated_at",
    "is_deleted",
    "actor_id",
    "role",
)


@dataclass
class StoreEntry:
    """One memory of the store: what the vector store holds of it (None: mem0 deleted it, and
    its history alone tells of it) and its history, as mem0's ``Memory.history`` answers it."""

    mem0_id: str
    payload: dict[str, Any] | None
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Mem0Store:
    memories: list[StoreEntry]
    history_read: bool  # False: imported as the memories stand, without history or the deleted ones


def store_read(*, config_path: Path, without_history: bool = False) -> Mem0Store:
    """Every memory of the mem0 store ``config_path`` describes, with its history (not read with
    ``without_history``). A config mem0 refuses, a history database missing where it says, a store
    that cannot be read: InvalidInput naming the cause, before anything is written."""
    config = _config(config_read(config_path), config_path)
    history_path = str(config.history_db_path)
    if not without_history:
        _history_check(history_path)  # before the store is listed: the cheap mistake first
    payloads = _payloads(config)
    events = {} if without_history else _history(history_path)
    ids = list(dict.fromkeys([*payloads, *events]))
    return Mem0Store(
        memories=[StoreEntry(i, payloads.get(i), events.get(i, [])) for i in ids],
        history_read=not without_history,
    )


def config_read(path: Path) -> dict[str, Any]:
    """The object a mem0 config file holds: JSON when it ends in ``.json``, else YAML (which
    reads JSON too)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"Cannot read the mem0 config {path}: {exc}.", field="config") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        kind = "JSON" if path.suffix.lower() == ".json" else "YAML"
        first = str(exc).strip().splitlines()[0]
        raise InvalidInput(f"The mem0 config {path} is not valid {kind}: {first}", field="config") from None
    if not isinstance(data, dict):
        raise InvalidInput(
            f"The mem0 config {path} must hold one object: the dict mem0's Memory.from_config takes.", field="config"
        )
    return data


def _config(data: dict[str, Any], path: Path) -> Any:
    try:
        return MemoryConfig(**data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "config"
        raise InvalidInput(f"mem0 refuses the config {path}: {where}: {error['msg']}", field="config") from None


def _payloads(config: Any) -> dict[str, dict[str, Any]]:
    """Every memory the vector store holds: id → payload."""
    provider = config.vector_store.provider
    try:
        store = VectorStoreFactory.create(provider, config.vector_store.config)
        rows = _listed(store)
    except Exception as exc:  # whatever the store's own client raises: the import cannot go on
        raise InvalidInput(
            f"mem0's {provider} vector store could not be read: {exc.__class__.__name__}: {exc}", field="config"
        ) from None
    return {str(row.id): dict(row.payload or {}) for row in rows}


def _listed(store: Any) -> list[Any]:
    asked = FIRST_LISTING
    while True:
        rows = _rows(store.list(filters=None, top_k=asked))
        if len(rows) < asked:
            return rows
        asked *= 4


def _rows(listed: Any) -> list[Any]:
    """A listing's rows: some stores answer them in a list, some wrapped in one (as mem0 reads them)."""
    if isinstance(listed, list | tuple) and listed and isinstance(listed[0], list | tuple):
        return list(listed[0])
    return list(listed or [])


def _history_check(path: str) -> None:
    if path == ":memory:" or not Path(path).is_file():
        raise InvalidInput(
            f"No mem0 history database at {path} (the config's history_db_path; mem0's default is "
            "~/.mem0/history.db, or history.db in MEM0_DIR). Name the one your mem0 uses, or pass --without-history "
            "to import the memories as they stand, without their history and without those mem0 deleted.",
            field="config",
        )


def _history(path: str) -> dict[str, list[dict[str, Any]]]:
    """Each memory's history events, in mem0's order."""
    try:
        database = SQLiteManager(path)
        try:
            rows = database.connection.execute(HISTORY_QUERY).fetchall()
        finally:
            database.close()
    except Exception as exc:  # sqlite3's errors, or mem0's own on migrating an older table
        raise InvalidInput(
            f"mem0's history database {path} could not be read: {exc.__class__.__name__}: {exc}", field="config"
        ) from None
    events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        event = dict(zip(HISTORY_COLUMNS, row, strict=True))
        events[str(event["memory_id"])].append(event)
    return dict(events)

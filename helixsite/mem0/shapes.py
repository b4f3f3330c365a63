"""mem0's request and answer shapes (as the mem0ai 2.2.1 client sends and reads them), and their
translation to and from the agent tools' (``memory.api``).

Requests are checked here only for what is mem0's own (which ids name whom, which options mean
nothing here); every bound on what is stored or searched is the tool's, checked when it is called.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from rest_framework import serializers

from helixsite.agents.tool import ToolInput
from helixsite.errors import InvalidInput

IDS = ("user_id", "agent_id", "app_id", "run_id")
IN_METADATA = ("run_id", "app_id")
ENTITY_TYPES = {
    "user": "user_id",
    "agent": "agent_id",
    "app": "app_id",
    "run": "run_id",
}  # /v1/entities/' types  # mem0's run and app: metadata keys (memory.search.filters)
ID_CHARS = 200
WORKSPACE_CHARS = 100
MAX_PAGE_SIZE = 200  # list_memories' own bound

# Our decision on a fact → mem0's events, as (event for the memory that holds it, whether the
# memory it replaced is reported DELETE). A SUPERSEDE is how Helixsite executes mem0's DELETE.
EVENTS = {
    "ADD": ("ADD", False),
    "UPDATE": ("UPDATE", False),
    "SUPERSEDE": ("ADD", True),
    "CONTRADICT": ("ADD", False),
    "LINK_EXISTING": ("NOOP", False),
    "NOOP": ("NOOP", False),
}
# Our history actions → mem0's history events.
HISTORY_EVENTS = {"UPDATE": "UPDATE", "CORRECT": "UPDATE", "SUPERSEDE": "DELETE", "FORGET": "DELETE", "RESTORE": "ADD"}


def _id_field() -> serializers.CharField:
    return serializers.CharField(required=False, max_length=ID_CHARS)


def _workspace_field() -> serializers.CharField:
    return serializers.CharField(required=False, max_length=WORKSPACE_CHARS, help_text="a workspace slug or id")


class WorkspaceInput(ToolInput):
    """What every call may name: mem0's project (or organisation) as a Helixsite workspace."""

    project_id = _workspace_field()
    org_id = _workspace_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = {attrs.pop(key) for key in ("project_id", "org_id") if attrs.get(key)}
        if len(given) > 1:
            raise InvalidInput("project_id and org_id name different workspaces.", field="project_id")
        attrs["workspace"] = given.pop() if given else None
        return attrs


class AddInput(WorkspaceInput):
    messages = serializers.JSONField()
    user_id = _id_field()
    agent_id = _id_field()
    app_id = _id_field()
    run_id = _id_field()
    filters = serializers.DictField(required=False, help_text="the ids, as the v3 client may send them")
    metadata = serializers.DictField(required=False)
    infer = serializers.BooleanField(default=True)
    timestamp = serializers.IntegerField(required=False, min_value=0, max_value=253402300799)
    expiration_date = serializers.DateField(required=False, allow_null=True)
    # Accepted and without effect here: every add is answered when written (or queued, with
    # HELIX_ADD_BUFFERED), in the one output format, and the graph is always kept.
    async_mode = serializers.BooleanField(required=False)
    output_format = serializers.CharField(required=False, max_length=10)
    version = serializers.CharField(required=False, max_length=10)
    enable_graph = serializers.BooleanField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        ids = ids_given(attrs, attrs.pop("filters", None) or {})
        if not any(ids.values()):
            raise InvalidInput("One of user_id, agent_id, app_id or run_id is required.", field="user_id")
        attrs.update(ids)
        return attrs


class SearchInput(WorkspaceInput):
    query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
    filters = serializers.JSONField(required=False)
    top_k = serializers.IntegerField(required=False, min_value=1, max_value=100)
    threshold = serializers.FloatField(required=False, min_value=0, max_value=100)
    # Accepted and without effect: the ranking is always the hybrid one, reranked by its own
    # signals; a superseded memory is always demoted, never hidden (``latest_only``); results
    # come in the one output format (the npm client sends ``output_format: "v1.1"``).
    rerank = serializers.BooleanField(required=False)
    keyword_search = serializers.BooleanField(required=False)
    latest_only = serializers.BooleanField(required=False)
    output_format = serializers.CharField(required=False, max_length=10)
    # DRF's metaclass takes declared fields out of the class body, so this one does not shadow
    # Serializer.fields; the stubs cannot know that.
    fields = serializers.ListField(  # type: ignore[assignment]
        child=serializers.CharField(max_length=50), required=False, max_length=20
    )


class ListInput(WorkspaceInput):
    filters = serializers.JSONField(required=False)
    page = serializers.IntegerField(default=1, min_value=1, max_value=10**6)
    page_size = serializers.IntegerField(default=100, min_value=1, max_value=MAX_PAGE_SIZE)


class DeleteAllInput(WorkspaceInput):
    user_id = _id_field()
    agent_id = _id_field()
    app_id = _id_field()
    run_id = _id_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if not any(attrs.get(key) for key in IDS):
            # mem0 forgets nothing without a scope; neither do we, rather than a whole workspace.
            raise InvalidInput("Name whose memories to delete: user_id, agent_id, app_id or run_id.", field="user_id")
        return attrs


class UpdateInput(WorkspaceInput):
    text = serializers.CharField(required=False, trim_whitespace=False)
    metadata = serializers.DictField(required=False)
    timestamp = serializers.JSONField(required=False)
    expiration_date = serializers.JSONField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        for key in ("metadata", "timestamp", "expiration_date"):
            if key in attrs:
                raise InvalidInput(
                    f"{key} cannot be changed here: an update corrects a memory's text (update_memory).",
                    code="not_offered",
                    field=key,
                )
        if "text" not in attrs:
            raise InvalidInput("text is required.", field="text")
        return attrs


class MemoryRefInput(WorkspaceInput):
    delete_linked = serializers.BooleanField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if attrs.pop("delete_linked", False):
            raise InvalidInput(
                "delete_linked is not offered: delete the memories it superseded by their ids.",
                code="not_offered",
                field="delete_linked",
            )
        return attrs


class BatchInput(WorkspaceInput):
    """``/v1/batch/``: ``memories``, each ``{memory_id, text}`` (update) or ``{memory_id}``
    (delete); at most HELIX_MAX_MESSAGES_PER_CALL, all checked before any is changed."""

    memories = serializers.JSONField()


def batch_items(value: Any, *, text: bool) -> list[dict[str, str]]:
    """A batch's checked items; ``text``: each must carry one (an update)."""
    most = settings.HELIX_MAX_MESSAGES_PER_CALL
    if not isinstance(value, list) or not value or len(value) > most:
        raise InvalidInput(f"memories must be a list of 1 to {most} objects.", field="memories")
    return [_batch_item(index, item, text=text) for index, item in enumerate(value)]


def _batch_item(index: int, item: Any, *, text: bool) -> dict[str, str]:
    where = f"memories[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object with memory_id.", field=where)
    allowed = {"memory_id", "text"} if text else {"memory_id"}
    for key in item:
        if key == "metadata" and text:
            raise InvalidInput("metadata cannot be changed here.", code="not_offered", field=f"{where}.metadata")
        if key not in allowed:
            raise InvalidInput("Unknown parameter.", code="unknown_parameter", field=f"{where}.{key}")
    checked = {}
    for key in sorted(allowed):
        if not isinstance(item.get(key), str) or not item[key] or len(item[key]) > settings.HELIX_MAX_MESSAGE_BYTES:
            raise InvalidInput(f"{key} must be a non-empty text.", field=f"{where}.{key}")
        checked[key] = item[key]
    return checked


def ids_given(attrs: dict[str, Any], filters: dict[str, Any]) -> dict[str, str | None]:
    """mem0's four ids, from the call's own fields or from its ``filters`` (where the v3 client
    puts them); named in both, they must agree. Only plain ids may be in an add's filters."""
    unknown = sorted(set(filters) - set(IDS))
    if unknown:
        raise InvalidInput("An add's filters may hold only its ids.", field=f"filters.{unknown[0]}")
    ids: dict[str, str | None] = {}
    for key in IDS:
        named = filters.get(key)
        if named is not None and (not isinstance(named, str) or len(named) > ID_CHARS):
            raise InvalidInput(f"{key} must be a text of at most {ID_CHARS} characters.", field=f"filters.{key}")
        given = attrs.pop(key, None)
        if given and named and given != named:
            raise InvalidInput(f"{key} and filters.{key} differ.", field=key)
        ids[key] = given or named or None
    return ids


def conversation_arguments(params: dict[str, Any]) -> dict[str, Any]:
    """An add as add_conversation's arguments. The owner is ``user_id``, else the first of
    ``agent_id``, ``app_id``, ``run_id`` named; ``agent_id`` is also the writing agent instance;
    ``run_id`` and ``app_id`` join every message's metadata."""
    owner = next(params[key] for key in IDS if params[key])
    metadata = {**(params.get("metadata") or {}), **{key: params[key] for key in IN_METADATA if params[key]}}
    when = None
    if params.get("timestamp") is not None:
        when = datetime.fromtimestamp(params["timestamp"], tz=UTC).isoformat()
    messages = params["messages"]
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    elif isinstance(messages, dict):
        messages = [messages]
    if not isinstance(messages, list):
        raise InvalidInput("messages must be a list of {role, content} objects.", field="messages")
    arguments: dict[str, Any] = {
        "user_id": owner,
        "messages": [_message(item, metadata, when) for item in messages],
        "extract": params["infer"],
    }
    if params.get("agent_id"):
        arguments["agent_id"] = params["agent_id"]
    if params.get("workspace"):
        arguments["group_id"] = params["workspace"]
    if params.get("expiration_date"):
        arguments["expires_at"] = f"{params['expiration_date'].isoformat()}T23:59:59Z"
    return arguments


def _message(item: Any, metadata: dict[str, Any], when: str | None) -> Any:
    """One mem0 message as one add_conversation message; anything but an object is left for
    add_conversation to refuse, naming its index."""
    if not isinstance(item, dict):
        return item
    message = {key: value for key, value in item.items() if key != "name"}
    if isinstance(item.get("name"), str) and item.get("role", "user") == "user":
        message["speaker"] = item["name"]  # OpenAI's speaker name: someone other than the user
    if metadata:
        message["metadata"] = metadata
    if when:
        message["occurred_at"] = when
    return message


def owner_named(filters: Any) -> str | None:
    """The owner a search's filters hold to (``user_id`` equal to one text, at the top or in a
    top-level AND), for a personal search; None: the search ranks across owners."""
    if not isinstance(filters, dict):
        return None
    ands = filters.get("AND")
    parts = [filters, *[p for p in (ands if isinstance(ands, list) else []) if isinstance(p, dict)]]
    for part in parts:
        owner = part.get("user_id")
        if isinstance(owner, dict) and set(owner) == {"eq"}:
            owner = owner["eq"]
        if isinstance(owner, str) and owner and owner != "*":
            return owner
    return None


def added_events(answers: list[dict[str, Any]], replaced: dict[str, str]) -> list[dict[str, Any]]:
    """add_conversation's answers (one per message) as mem0's events, one per memory concerned.
    ``replaced``: the text of each memory a SUPERSEDE replaced, by id."""
    events: list[dict[str, Any]] = []
    for answer in answers:
        for decision in answer.get("decisions", []):
            event, deletes = EVENTS.get(decision["op"], ("NOOP", False))
            if decision.get("memory_id"):
                events.append({"id": decision["memory_id"], "memory": decision["atom"], "event": event})
            if deletes and decision.get("target_id"):
                target = decision["target_id"]
                events.append({"id": target, "memory": replaced.get(target, ""), "event": "DELETE"})
    return events


def superseded_ids(answers: list[dict[str, Any]]) -> list[str]:
    return [
        d["target_id"] for a in answers for d in a.get("decisions", []) if d["op"] == "SUPERSEDE" and d.get("target_id")
    ]


def memory_as_mem0(memory: dict[str, Any]) -> dict[str, Any]:
    """A memory as the tools answer it (``memory_out``) in mem0's shape."""
    metadata = memory.get("metadata") or {}
    expires = memory.get("expires_at")
    return {
        "id": str(memory["id"]),
        "memory": memory["content"],
        "user_id": memory["user_id"],
        "agent_id": memory.get("agent_id") or None,
        "run_id": _text_or_none(metadata.get("run_id")),
        "app_id": _text_or_none(metadata.get("app_id")),
        "metadata": {k: v for k, v in metadata.items() if k not in IN_METADATA} or None,
        "categories": [],
        "memory_type": memory.get("memory_type"),
        "immutable": bool(memory.get("immutable", False)),
        "expiration_date": str(expires)[:10] if expires else None,
        "created_at": memory.get("created_at"),
        "updated_at": memory.get("updated_at"),
    }


def result_as_mem0(result: dict[str, Any]) -> dict[str, Any]:
    """A search result (``ResultOut``) in mem0's shape, with its score."""
    return {**memory_as_mem0(result), "score": result["score"]}


def history_as_mem0(memory: dict[str, Any], history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """get_memory's history as mem0's: its ADD first (the text it was written with), then each
    change. Ids are derived from the memory's and the entry's place, so they are stable."""
    first = history[0]["old_content"] if history else memory["content"]
    entries = [("ADD", None, first, memory["created_at"]), *_changes(history)]
    memory_id = str(memory["id"])
    return [
        {
            "id": str(uuid.uuid5(uuid.UUID(memory_id), str(index))),
            "memory_id": memory_id,
            "input": [],
            "old_memory": old,
            "new_memory": new,
            "user_id": memory["user_id"],
            "event": event,
            "metadata": memory_as_mem0(memory)["metadata"],
            "categories": [],
            "created_at": when,
            "updated_at": when,
        }
        for index, (event, old, new, when) in enumerate(entries)
    ]


def profile_as_mem0(user_id: str, profiles: list[dict[str, Any]]) -> dict[str, Any]:
    """get_profile's profiles (one per workspace holding the owner's memories) as mem0's one
    profile: their static lines, then their dynamic ones, each line naming its workspace."""
    parts = {
        part: [{**line, "workspace": profile["workspace"]} for profile in profiles for line in profile[part]]
        for part in ("static", "dynamic")
    }
    return {
        "entity_type": "user",
        "entity_id": user_id,
        # get_profile builds a profile never built before it answers: none is ever pending.
        "status": "succeeded" if any(parts.values()) else "insufficient_data",
        "profile": parts,
        "updated_at": max((p["refreshed_at"] for p in profiles if p["refreshed_at"]), default=None),
        "generation_count": None,  # not counted here
    }


def _changes(history: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None, str]]:
    changes = []
    for h in history:
        event = HISTORY_EVENTS.get(h["action"], "UPDATE")
        # mem0's DELETE has the text it deleted and no new one.
        changes.append((event, h["old_content"], None if event == "DELETE" else h["new_content"], h["created_at"]))
    return changes


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)

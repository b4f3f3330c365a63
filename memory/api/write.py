"""The memory tools that write: add, update, forget, restore."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework import serializers

from helixsite.agents.agent_ids import AgentIdField
from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from memory.api import examples
from memory.api.shapes import MemoryOut, memory_out
from memory.ingest.exchange import messages_check
from memory.ingest.request import (
    conversation_parse,
    event_time_parse,
    expiry_parse,
    message_check,
    metadata_check,
)
from memory.services.add import memory_add, memory_add_conversation
from memory.services.corrections import memory_forget, memory_restore, memory_update
from rbac.actors import Actor

MAX_TTL_SECONDS = 100 * 365 * 24 * 3600


class AddedOutput(serializers.Serializer):
    """What an add answers besides its outcome: whether it was buffered, and what is owed from before."""

    status = serializers.CharField(required=False, help_text='"accepted" when the write is buffered')
    pending_id = serializers.UUIDField(required=False)
    pending_outcomes = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="earlier outcomes and notices: add_outcome, contradiction_review, rule_proposal, ops_alert",
    )


class AddMemoryApi(ToolApi):
    """Turn a message into atomic memories: extract, deduplicate, decide (add, update,
    supersede, contradict, link or skip) per fact."""

    tool = "add_memory"
    kind = ToolKind.MEMORY_WRITE
    example = examples.ADD_MEMORY

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200, help_text="whose memory this is (the subject)")
        message = serializers.CharField(trim_whitespace=False)
        group_id = serializers.CharField(
            required=False, max_length=100, help_text="workspace slug or id; required when you can write to several"
        )
        agent_id = AgentIdField(required=False, allow_blank=True, default="", help_text="which instance of you writes")
        metadata = serializers.DictField(required=False, help_text="returned with the memory in results")
        occurred_at = serializers.CharField(required=False, max_length=40, help_text="event time, RFC 3339")
        extract = serializers.BooleanField(default=True, help_text="false: store the message verbatim")
        expires_at = serializers.CharField(
            required=False, max_length=40, help_text="RFC 3339: the memories this call writes are recalled until then"
        )
        ttl = serializers.IntegerField(
            required=False, min_value=1, max_value=MAX_TTL_SECONDS, help_text="seconds: expires_at as a duration"
        )
        # DRF's metaclass takes declared fields out of the class body, so this one does not
        # shadow Field.context; the stubs cannot know that.
        context = serializers.JSONField(required=False, help_text="recent turns: {turns: [{role, content}]}")  # type: ignore[assignment]

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            """The checks no field type expresses, once, after every field passed its own."""
            attrs["message"] = message_check(attrs["message"])
            attrs["metadata"] = metadata_check(attrs.get("metadata"))
            attrs["occurred_at"] = event_time_parse(attrs.get("occurred_at"))
            attrs["conversation"] = conversation_parse(attrs.pop("context", None))
            attrs["expires_at"] = expiry_parse(attrs.get("expires_at"), attrs.pop("ttl", None), now=timezone.now())
            return attrs

    class OutputSerializer(AddedOutput):
        ok = serializers.BooleanField()
        memory_ids = serializers.ListField(child=serializers.UUIDField(), required=False)
        updated = serializers.ListField(child=serializers.UUIDField(), required=False)
        deduped = serializers.ListField(child=serializers.UUIDField(), required=False)
        skipped = serializers.ListField(child=serializers.DictField(), required=False)
        superseded = serializers.ListField(child=serializers.UUIDField(), required=False)
        superseded_in_part = serializers.ListField(
            child=serializers.UUIDField(),
            required=False,
            help_text="earlier memories that say other things too, of which this message updated a value: "
            "they stay current, linked by SUPERSEDES from the new memory",
        )
        contradicted = serializers.ListField(child=serializers.UUIDField(), required=False)
        needs_clarification = serializers.ListField(child=serializers.DictField(), required=False)
        decisions = serializers.ListField(child=serializers.DictField(), required=False)
        run_id = serializers.UUIDField(required=False)
        adopted_rule = serializers.DictField(required=False, help_text="when the call was a rule proposal's")
        already_adopted = serializers.BooleanField(required=False)

    @classmethod
    def run(cls, *, actor: User, **params: Any) -> dict[str, Any]:
        return memory_add(actor=actor, buffered=settings.HELIX_ADD_BUFFERED, deliver_outcomes=True, **params)


class AddConversationApi(ToolApi):
    """Add an exchange in one call: each message in order as its speaker's turn, with the earlier
    ones as its context, as add_memory would add it, the atoms of all embedded in one batch.
    Answers one add_memory answer per message. A bad message refuses the whole call before
    anything is written (the error names messages[i] and its field); a message that fails while
    writing keeps the ones before it (``written``) and stops the call; the same call again
    writes nothing twice."""

    tool = "add_conversation"
    kind = ToolKind.MEMORY_WRITE
    example = examples.ADD_CONVERSATION

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200, help_text="whose memory this is (the subject)")
        messages = serializers.JSONField(
            help_text="in order: [{role (user, assistant, system) or speaker (a name), content, occurred_at "
            "(RFC 3339), metadata}]; at most HELIX_MAX_MESSAGES_PER_CALL, HELIX_MAX_CONVERSATION_BYTES together"
        )
        group_id = serializers.CharField(
            required=False, max_length=100, help_text="workspace slug or id; required when you can write to several"
        )
        agent_id = AgentIdField(required=False, allow_blank=True, default="", help_text="which instance of you writes")
        extract = serializers.BooleanField(default=True, help_text="false: store each message verbatim")
        expires_at = serializers.CharField(
            required=False, max_length=40, help_text="RFC 3339: the memories this call writes are recalled until then"
        )
        ttl = serializers.IntegerField(
            required=False, min_value=1, max_value=MAX_TTL_SECONDS, help_text="seconds: expires_at as a duration"
        )
        context = serializers.JSONField(  # type: ignore[assignment]
            required=False, help_text="what was said before the first message: {turns: [{role, content}]}"
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            attrs["messages"] = messages_check(attrs["messages"])
            attrs["conversation"] = conversation_parse(attrs.pop("context", None))
            attrs["expires_at"] = expiry_parse(attrs.get("expires_at"), attrs.pop("ttl", None), now=timezone.now())
            return attrs

    class OutputSerializer(AddedOutput):
        ok = serializers.BooleanField()
        results = serializers.ListField(
            child=serializers.DictField(), required=False, help_text="an add_memory answer per message, in order"
        )

    @classmethod
    def run(cls, *, actor: User, **params: Any) -> dict[str, Any]:
        return memory_add_conversation(
            actor=actor, buffered=settings.HELIX_ADD_BUFFERED, deliver_outcomes=True, **params
        )


class UpdateMemoryApi(ToolApi):
    """Correct a known memory's content by id (new embedding, history kept). Not for
    rephrasing: new information goes through add_memory, which decides to update or supersede."""

    tool = "update_memory"
    kind = ToolKind.MEMORY_WRITE
    example = examples.UPDATE_MEMORY

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        user_id = serializers.CharField(max_length=200, help_text="the memory's owner, as a check")
        new_content = serializers.CharField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory = MemoryOut()

    @classmethod
    def run(cls, *, actor: Actor, memory_id: Any, user_id: str, new_content: str, reason: str) -> dict[str, Any]:
        memory = memory_update(actor=actor, memory_id=memory_id, content=new_content, reason=reason, user_id=user_id)
        return {"ok": True, "memory": memory_out(memory)}


class ForgetMemoryApi(ToolApi):
    """Soft-delete a memory (author, moderator or admin); history kept, an admin can restore."""

    tool = "forget_memory"
    kind = ToolKind.MEMORY_WRITE
    example = examples.FORGET_MEMORY

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory_id = serializers.UUIDField()
        forgotten_at = serializers.DateTimeField()

    @classmethod
    def run(cls, *, actor: Actor, memory_id: Any, reason: str) -> dict[str, Any]:
        memory = memory_forget(actor=actor, memory_id=memory_id, reason=reason)
        assert memory.deleted_at is not None  # memory_forget has just set it
        return {"ok": True, "memory_id": str(memory.id), "forgotten_at": memory.deleted_at.isoformat()}


class RestoreMemoryApi(ToolApi):
    """Bring back a forgotten memory (global admins)."""

    tool = "restore_memory"
    kind = ToolKind.MEMORY_WRITE
    example = examples.RESTORE_MEMORY

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory = MemoryOut()

    @classmethod
    def run(cls, *, actor: Actor, memory_id: Any, reason: str) -> dict[str, Any]:
        return {"ok": True, "memory": memory_out(memory_restore(actor=actor, memory_id=memory_id, reason=reason))}

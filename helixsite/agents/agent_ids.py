"""Agent ids: which running instance of a principal's agent did something. Every ``agent_id``
and ``parent_agent_id`` a client sends (add_memory, add_document, the presence tools) follows
one rule, written here: up to AGENT_ID_MAX letters, digits and ``. _ : / @ -``. Ids are shown
in the control room and in swarm_status, so no markup, space or control character gets in.
Reads are not checked: an id stored before the rule reads back as stored."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from helixsite.errors import InvalidInput

AGENT_ID_MAX = 128
AGENT_ID_PATTERN = re.compile(r"[A-Za-z0-9._:/@-]+")
AGENT_ID_RULE = f"at most {AGENT_ID_MAX} letters, digits and . _ : / @ -"


def agent_id_parse(value: str, *, field: str = "agent_id") -> str:
    """``value`` if it follows the rule; refused naming ``field`` otherwise."""
    if not value:
        raise InvalidInput(f"{field} must not be empty.", field=field)
    if len(value) > AGENT_ID_MAX or not AGENT_ID_PATTERN.fullmatch(value):
        raise InvalidInput(f"{field} must be {AGENT_ID_RULE}.", code="invalid_agent_id", field=field)
    return value


class AgentIdField(serializers.CharField):
    """An agent id among a tool's parameters, checked by ``agent_id_parse``. Blank passes only
    where the field allows it (``allow_blank``: the id is optional there)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", AGENT_ID_MAX)
        said = kwargs.pop("help_text", None)
        kwargs["help_text"] = f"{said}; {AGENT_ID_RULE}" if said else AGENT_ID_RULE
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        try:
            return agent_id_parse(value, field=self.field_name or "agent_id")
        except InvalidInput as refused:
            raise serializers.ValidationError(refused.message, code=refused.code) from None

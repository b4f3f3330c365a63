"""What was said just before a message, kept with the memories it becomes.

A conversation's answer often lacks the words of its question ("Adoption agencies." after "What
did you research?"). Recall matches a question against a memory's own words and, at a lower
weight, against what was said just before it (``Memory.context``). That is the conversation the
client sent with the message, or else the owner's previous message in the same write domain, when
it came within ``HELIX_CONVERSATION_GAP_SECONDS`` of this one, by the clock and, when both carry
one, by event time: a conversation imported long after it happened keeps its sessions apart.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from memory.ingest.extract import Conversation
from memory.models import IngestRun

MAX_CHARS = 1000


def said_before(
    *,
    conversation: Conversation,
    user_id: str,
    scope: str,
    started_at: datetime,
    occurred_at: datetime | None,
) -> str:
    given = conversation.turns[-1]["content"] if conversation.turns else conversation.previous_assistant
    if given.strip():
        return given.strip()[:MAX_CHARS]
    gap = settings.HELIX_CONVERSATION_GAP_SECONDS
    if gap <= 0:
        return ""
    previous = (
        IngestRun.objects.filter(
            user_id=user_id,
            rbac_scope=scope,
            started_at__lt=started_at,
            started_at__gte=started_at - timedelta(seconds=gap),
        )
        .exclude(status=IngestRun.Status.FAILED)
        .order_by("-started_at")
        .values_list("message", "occurred_at")
        .first()
    )
    if previous is None:
        return ""
    message, then = previous
    if occurred_at is not None and then is not None and abs(occurred_at - then) > timedelta(seconds=gap):
        return ""
    return message.strip()[:MAX_CHARS]

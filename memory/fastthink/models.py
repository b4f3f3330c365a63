"""FastThink's tables: scratch reasoning sessions and their thoughts.

They live in the database so any web worker can serve any call of a session. Nothing
here is ever recalled by search: only a committed conclusion becomes a memory.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

from rbac.actors import Actor


class SessionState(models.TextChoices):
    THINKING = "thinking"
    DECIDED = "decided"
    TIMED_OUT = "timed_out"
    COMMITTED = "committed"
    DISCARDED = "discarded"


# Still waiting for the actor (a timed-out session waits for its explicit discard).
UNFINISHED = (SessionState.THINKING, SessionState.DECIDED, SessionState.TIMED_OUT)
# Still running against the clock.
RUNNING = (SessionState.THINKING, SessionState.DECIDED)
# No longer waiting for anything: kept for the retention window, then swept.
ENDED = (SessionState.TIMED_OUT, SessionState.COMMITTED, SessionState.DISCARDED)


class TimeoutReason(models.TextChoices):
    WALL_CLOCK = "wall_clock"
    THOUGHT_COUNT = "thought_count"


class ThoughtType(models.TextChoices):
    REASONING = "reasoning"
    HYPOTHESIS = "hypothesis"
    OBSERVATION = "observation"
    QUESTION = "question"
    CONCLUSION = "conclusion"


class ThinkSessionQuerySet(models.QuerySet["ThinkSession"]):
    def owned_by(self, actor: Actor) -> ThinkSessionQuerySet:
        return self.filter(actor_id=actor.pk)

    def unfinished(self) -> ThinkSessionQuerySet:
        return self.filter(state__in=UNFINISHED)

    def past_deadline(self, now: datetime) -> ThinkSessionQuerySet:
        return self.filter(state__in=RUNNING, deadline_at__lte=now)

    def ended_before(self, moment: datetime) -> ThinkSessionQuerySet:
        return self.filter(state__in=ENDED, ended_at__lte=moment)


class ThinkSession(models.Model):
    """One scratch session, bound to the actor who started it.

    ``session_id`` is the caller's name for it, unique per actor among unfinished
    sessions: another actor's session of the same name is another session. The limits in
    force at the start are kept with the session, so a configuration change never moves
    the goalposts of a running one.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="think_sessions")
    session_id = models.CharField(max_length=200)
    state = models.CharField(max_length=16, choices=SessionState.choices, default=SessionState.THINKING)
    user_id = models.CharField(max_length=200, blank=True, help_text="the owner last recalled about or committed for")
    thought_count = models.PositiveIntegerField(default=0)
    max_thoughts = models.PositiveIntegerField()
    max_seconds = models.PositiveIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    deadline_at = models.DateTimeField()
    updated_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True, help_text="when it timed out, was committed or discarded")
    timed_out_reason = models.CharField(max_length=16, choices=TimeoutReason.choices, blank=True)
    committed_memory = models.ForeignKey(
        "memory.Memory", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    commit_run_id = models.UUIDField(null=True, blank=True)

    objects = ThinkSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["actor", "session_id"],
                condition=models.Q(state__in=UNFINISHED),
                name="think_one_unfinished_session_per_id",
            ),
            models.CheckConstraint(
                condition=models.Q(thought_count__lte=models.F("max_thoughts")), name="think_thoughts_within_limit"
            ),
        ]
        indexes = [
            models.Index(fields=["actor", "session_id", "-started_at"], name="think_session_by_actor_id"),
            models.Index(fields=["state", "deadline_at"], name="think_session_sweep"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} ({self.state})"

    def is_past_deadline(self, now: datetime) -> bool:
        return self.state in RUNNING and now >= self.deadline_at

    def seconds_left(self, now: datetime) -> float:
        if self.state not in RUNNING:
            return 0.0
        return max(0.0, round((self.deadline_at - now).total_seconds(), 1))


class Thought(models.Model):
    """A node of a session's scratch graph. ``parent_idx`` points at an earlier thought;
    ``memory`` is set on the observations think_recall brought in (the evidence)."""

    session = models.ForeignKey(ThinkSession, on_delete=models.CASCADE, related_name="thoughts")
    idx = models.PositiveIntegerField()
    thought_type = models.CharField(max_length=16, choices=ThoughtType.choices)
    content = models.TextField()
    parent_idx = models.PositiveIntegerField(null=True, blank=True)
    memory = models.ForeignKey("memory.Memory", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    supporting = models.BooleanField(default=False, help_text="cited by the conclusion")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "idx"]
        constraints = [
            models.UniqueConstraint(fields=["session", "idx"], name="think_thought_idx_unique"),
            models.CheckConstraint(
                condition=models.Q(parent_idx__isnull=True) | models.Q(parent_idx__lt=models.F("idx")),
                name="think_thought_parent_is_earlier",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.idx} {self.thought_type}: {self.content[:60]}"

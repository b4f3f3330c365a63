"""Concrete agent instances: who is running now, under which logical principal.

A principal (the Django user a token belongs to) is the logical agent; each process or
delegated subagent acting with its token is an instance, named by the caller's
``agent_id``. Presence is diagnostic state, not memory: rows are ended by farewell or
expiry and deleted after a retention period.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from helixsite.agents.agent_ids import AGENT_ID_MAX
from rbac.actors import Actor
from rbac.presence.visibility import visible_principals_filter

STATUS_MAX = 200


class EndReason(models.TextChoices):
    FAREWELL = "farewell", "farewell"
    PARENT_ENDED = "parent_ended", "its parent ended"
    EXPIRED = "expired", "expired (not seen)"


class AgentInstanceQuerySet(models.QuerySet["AgentInstance"]):
    def live(self) -> AgentInstanceQuerySet:
        return self.filter(ended_at__isnull=True)

    def ended_before(self, moment: datetime) -> AgentInstanceQuerySet:
        return self.filter(ended_at__lt=moment)

    def stale(self, cutoff: datetime) -> AgentInstanceQuerySet:
        """Live, not seen since ``cutoff``, and with no subagent seen since: a root that
        waits on a working subagent is still alive."""
        fresh_subagent = AgentInstance.objects.live().filter(parent=OuterRef("pk"), last_seen__gte=cutoff)
        return self.live().filter(last_seen__lt=cutoff).exclude(Exists(fresh_subagent))

    def visible_to(self, actor: Actor) -> AgentInstanceQuerySet:
        return self.filter(visible_principals_filter(actor, field="user_id"))


class AgentInstance(models.Model):
    """One concrete instance (``agent_id``) of a principal; a subagent names its root as parent."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agent_instances")
    agent_id = models.CharField(max_length=AGENT_ID_MAX)
    # SET_NULL: purging an ended root must never take a row that is still live with it.
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="subagents")
    status = models.CharField(max_length=STATUS_MAX, default="active")
    first_seen = models.DateTimeField(default=timezone.now, help_text="start of the current session")
    last_seen = models.DateTimeField(default=timezone.now)
    sessions = models.PositiveIntegerField(default=1, help_text="1 + times it was revived after ending")
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True)

    objects = AgentInstanceQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "agent_id"], name="agent_instance_once_per_principal"),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True, end_reason="") | Q(ended_at__isnull=False) & ~Q(end_reason=""),
                name="agent_instance_end_reason_iff_ended",
            ),
            models.CheckConstraint(condition=~Q(parent=models.F("pk")), name="agent_instance_not_its_own_parent"),
        ]
        indexes = [
            models.Index(fields=["last_seen"], condition=Q(ended_at__isnull=True), name="agent_instance_live_seen"),
            models.Index(fields=["ended_at"], condition=Q(ended_at__isnull=False), name="agent_instance_ended"),
        ]

    def __str__(self) -> str:
        return f"{self.agent_id} of {self.user.get_username()}"

    @property
    def is_live(self) -> bool:
        return self.ended_at is None

"""The control room's own rows: the audit trail of what global admins did in it, the counts of
what is stored that the observatory shows, and the memories kept per owner for the owners page."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class AuditEntry(models.Model):
    """One action taken in the room: who, when, what, on what, and the state before and after.

    ``actor_name`` keeps the name as it was, so the trail still reads after a principal goes."""

    at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150)
    action = models.CharField(max_length=64, help_text="what was done, e.g. token.issue")
    target = models.CharField(max_length=300, help_text="what it was done to, e.g. principal:alice")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_name} {self.action} {self.target}"


class CountsSnapshot(models.Model):
    """What is stored, counted: memories by lifecycle, live edges by type, and the other things an
    installation holds (``stewardship.metrics.stored_counts``). Taken by a schedule and on an admin's
    asking, so the observatory reads one row instead of counting every memory at each visit; it
    shows when they were counted."""

    taken_at = models.DateTimeField(default=timezone.now, db_index=True)
    duration_ms = models.FloatField(default=0, help_text="how long the counting took")
    counts = models.JSONField(default=dict)

    class Meta:
        ordering = ["-taken_at"]

    def __str__(self) -> str:
        return f"counts {self.taken_at:%Y-%m-%d %H:%M:%S}"


class OwnerCount(models.Model):
    """How many memories an owner (``Memory.user_id``) holds in a workspace: ``memories`` those not
    forgotten and not superseded, ``held`` every row in any state; a memory visible in two
    workspaces counts in both, one visible in none under ``workspace_id`` null. Kept by triggers
    and the fold (``stewardship.owner_counts``), never written by hand."""

    user_id = models.CharField(max_length=200)
    # No foreign key: a count outlives nothing, and the fold writes it without looking workspaces up.
    workspace_id = models.IntegerField(null=True, blank=True)
    memories = models.BigIntegerField()
    held = models.BigIntegerField()
    newest = models.DateTimeField(null=True, help_text="the last write or change of state of a memory counted in")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user_id", "workspace_id"], name="ownercount_key", nulls_distinct=False)
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.workspace_id}: {self.memories} of {self.held}"


class OwnerCountDelta(models.Model):
    """A change to ``OwnerCount`` not yet folded into it: appended by triggers, never updated."""

    user_id = models.CharField(max_length=200)
    workspace_id = models.IntegerField(null=True, blank=True)
    memories = models.BigIntegerField()
    held = models.BigIntegerField()
    newest = models.DateTimeField(null=True)

    class Meta:
        indexes = [models.Index(fields=["user_id"], name="ownercountdelta_owner")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.workspace_id}: {self.memories:+d} of {self.held:+d}"

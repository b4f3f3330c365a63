"""Contradiction reviews and their verdicts, the rule proposals verdicts lead to, and learned rules."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Resolution(models.TextChoices):
    CONFIRM = "confirm"
    RETRACT = "retract"
    PREFERENCE = "preference"


class ContradictionReview(models.Model):
    """A CONTRADICTS edge waiting for (or given) a verdict: ``from_memory`` is the newer statement."""

    class Status(models.TextChoices):
        OPEN = "open"
        SETTLED = "settled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    from_memory = models.ForeignKey("memory.Memory", on_delete=models.CASCADE, related_name="+")
    to_memory = models.ForeignKey("memory.Memory", on_delete=models.CASCADE, related_name="+")
    rbac_scope = models.CharField(max_length=100)
    workspace = models.ForeignKey("rbac.Workspace", on_delete=models.CASCADE, related_name="+")
    conflict_kind = models.CharField(max_length=120, help_text="memory type and attribute, e.g. fact:residence")
    reason = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    resolution = models.CharField(max_length=16, choices=Resolution.choices, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    settled_by_rule = models.ForeignKey(
        "charter.LearnedRule", null=True, blank=True, on_delete=models.SET_NULL, related_name="settled_reviews"
    )
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["from_memory", "to_memory"], name="review_once_per_pair"),
            models.CheckConstraint(
                condition=Q(status="open", resolution="") | (Q(status="settled") & ~Q(resolution="")),
                name="review_settled_has_resolution",
            ),
        ]
        indexes = [
            models.Index(fields=["rbac_scope", "conflict_kind", "resolution"], name="review_verdicts"),
        ]

    def __str__(self) -> str:
        return f"{self.conflict_kind}: {self.from_memory_id} vs {self.to_memory_id} ({self.status})"

    @property
    def subject(self) -> str:
        return f"review:{self.id}"


class RuleProposal(models.Model):
    """Enough identical verdicts on one kind of conflict in one write domain: a rule to adopt
    by making exactly the proposed add_memory call."""

    class Status(models.TextChoices):
        OPEN = "open"
        ADOPTED = "adopted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    rbac_scope = models.CharField(max_length=100)
    workspace = models.ForeignKey("rbac.Workspace", on_delete=models.CASCADE, related_name="+")
    conflict_kind = models.CharField(max_length=120)
    resolution = models.CharField(max_length=16, choices=Resolution.choices)
    text = models.CharField(max_length=500, help_text="the rule, as listed in memory://rules once adopted")
    user_id = models.CharField(max_length=200, help_text="user_id of the proposed add_memory call")
    message = models.TextField(help_text="message of the proposed add_memory call")
    metadata = models.JSONField(help_text="metadata of the proposed add_memory call")
    reviews = models.ManyToManyField(ContradictionReview, related_name="proposals")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["rbac_scope", "conflict_kind", "resolution"], name="proposal_once"),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def subject(self) -> str:
        return f"proposal:{self.id}"


class LearnedRuleQuerySet(models.QuerySet["LearnedRule"]):
    def active(self) -> LearnedRuleQuerySet:
        return self.filter(retired_at__isnull=True)


class LearnedRule(models.Model):
    """An adopted rule proposal: future conflicts of its kind in its write domain are settled by it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    proposal = models.OneToOneField(RuleProposal, on_delete=models.PROTECT, related_name="learned_rule")
    rbac_scope = models.CharField(max_length=100)
    workspace = models.ForeignKey("rbac.Workspace", on_delete=models.CASCADE, related_name="+")
    conflict_kind = models.CharField(max_length=120)
    resolution = models.CharField(max_length=16, choices=Resolution.choices)
    text = models.CharField(max_length=500)
    adopted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    adopted_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    objects = LearnedRuleQuerySet.as_manager()

    class Meta:
        ordering = ["adopted_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["rbac_scope", "conflict_kind"],
                condition=Q(retired_at__isnull=True),
                name="learned_rule_one_active_per_kind",
            ),
        ]

    def __str__(self) -> str:
        return self.text

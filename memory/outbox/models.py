"""Buffered writes (PendingInput) and the outbox of notices addressed to principals."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q
from django.utils import timezone


class PendingInputQuerySet(models.QuerySet["PendingInput"]):
    def finished(self) -> PendingInputQuerySet:
        return self.filter(status__in=[PendingInput.Status.DONE, PendingInput.Status.FAILED])

    def undelivered_for(self, user: User) -> PendingInputQuerySet:
        """Finished writes of ``user`` whose outcome has not reached them yet, oldest first."""
        return self.finished().filter(creator=user, delivered_at__isnull=True).order_by("finished_at", "id")

    def stranded(self, *, before: datetime) -> PendingInputQuerySet:
        """Queued, and last handed to the worker's queue before ``before``: its task should have
        run by now, so it never reached the queue or was lost with it."""
        handed = Q(requeued_at__isnull=True, created_at__lt=before) | Q(requeued_at__lt=before)
        return self.filter(handed, status=PendingInput.Status.QUEUED)

    def claimable(self, *, now: datetime) -> PendingInputQuerySet:
        """Queued, or running for longer than a task may run (its worker died): a retry takes it over."""
        stale = now - timedelta(seconds=settings.HELIX_TASK_TIMEOUT)
        return self.filter(
            Q(status=PendingInput.Status.QUEUED) | Q(status=PendingInput.Status.RUNNING, started_at__lt=stale)
        )


class PendingInput(models.Model):
    """One add_memory call accepted for the worker: who asked, for whom, where, and what came of it."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_inputs")
    user_id = models.CharField(max_length=200, help_text="whose memory the write is about (the owner)")
    workspace = models.ForeignKey("rbac.Workspace", on_delete=models.CASCADE, related_name="+")
    rbac_scope = models.CharField(max_length=100, help_text="write domain resolved when the call was accepted")
    payload = models.JSONField(help_text="message, agent_id, metadata, occurred_at, extract, context")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(default=dict, blank=True)
    error_code = models.CharField(max_length=64, blank=True)
    error_message = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True, help_text="when the outcome reached the creator")
    requeued_at = models.DateTimeField(
        null=True, blank=True, help_text="when the sweep last queued its task again (it never reached the queue)"
    )

    objects = PendingInputQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["creator", "finished_at"],
                condition=Q(delivered_at__isnull=True, status__in=["done", "failed"]),
                name="pending_undelivered",
            ),
            models.Index(fields=["created_at"], condition=Q(status="queued"), name="pending_queued"),
        ]

    def __str__(self) -> str:
        return f"pending {self.id} {self.status}"


class NoticeKind(models.TextChoices):
    CONTRADICTION_REVIEW = "contradiction_review"
    OPS_ALERT = "ops_alert"
    RULE_PROPOSAL = "rule_proposal"


class NoticeQuerySet(models.QuerySet["Notice"]):
    def deliverable_to(self, user: User, *, now: datetime) -> NoticeQuerySet:
        """Not retired, and never delivered, or delivered long enough ago to surface again."""
        due = Q(delivered_at__isnull=True)
        hours = settings.HELIX_NOTICE_RESURFACE_HOURS
        if hours > 0:
            due |= Q(resurfaces=True, delivered_at__lt=now - timedelta(hours=hours))
        return self.filter(due, recipient=user, retired_at__isnull=True).order_by("created_at", "id")

    def about(self, subject: str) -> NoticeQuerySet:
        return self.filter(subject=subject)

    # ``self`` is annotated because inside the class django-stubs leaves its model unbound.
    def address(
        self: NoticeQuerySet, *, kind: str, subject: str, recipients: list, payload: dict, resurfaces: bool = False
    ) -> None:
        """One row per recipient; sending the same notice about the same subject again adds nothing."""
        self.bulk_create(
            [
                Notice(kind=kind, subject=subject, recipient=user, payload=payload, resurfaces=resurfaces)
                for user in recipients
            ],
            ignore_conflicts=True,
        )


class Notice(models.Model):
    """Something a principal should hear about on their next add_memory (``pending_outcomes``).

    ``subject`` names what the notice is about (``review:<id>``, ``proposal:<id>``,
    ``pending:<id>``): the same notice is never addressed twice to one recipient, and
    settling the subject retires every notice about it.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=32, choices=NoticeKind.choices)
    subject = models.CharField(max_length=100)
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    payload = models.JSONField()
    resurfaces = models.BooleanField(default=False, help_text="delivered again while unsettled")
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    deliveries = models.PositiveSmallIntegerField(default=0)
    retired_at = models.DateTimeField(null=True, blank=True, help_text="settled or withdrawn: never delivered again")

    objects = NoticeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["recipient", "kind", "subject"], name="notice_once_per_recipient"),
        ]
        indexes = [
            models.Index(fields=["recipient", "created_at"], condition=Q(retired_at__isnull=True), name="notice_open"),
            models.Index(fields=["subject"], name="notice_by_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.subject} for {self.recipient_id}"

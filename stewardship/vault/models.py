"""The vault's catalogue: backups (an archive and its manifest on disk, described here) and the
jobs that make, check and restore them.

The files are the truth: a restore replaces this table with the archive's (older) copy, so the
catalogue is rebuilt from the manifests on disk afterwards (``catalogue_reconcile``)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class Backup(models.Model):
    class Kind(models.TextChoices):
        MANUAL = "manual"
        SCHEDULED = "scheduled"
        SAFETY = "safety", "safety (before a restore)"

    class Status(models.TextChoices):
        RUNNING = "running"
        READY = "ready"
        FAILED = "failed"

    id = models.CharField(primary_key=True, max_length=40, help_text="time it was taken and 4 hex digits")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by_name = models.CharField(max_length=150, blank=True)
    size_bytes = models.BigIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    manifest = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    verify_ok = models.BooleanField(null=True, blank=True)
    verify_report = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"backup {self.id} {self.status}"

    @property
    def ready(self) -> bool:
        return self.status == self.Status.READY


class VaultJobQuerySet(models.QuerySet["VaultJob"]):
    def unfinished(self) -> VaultJobQuerySet:
        return self.filter(status__in=[VaultJob.Status.QUEUED, VaultJob.Status.RUNNING])


class VaultJob(models.Model):
    """One backup, verify or restore, from the moment it is asked for to its outcome."""

    class Kind(models.TextChoices):
        BACKUP = "backup"
        VERIFY = "verify"
        RESTORE = "restore"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    backup_id = models.CharField(max_length=40, help_text="the backup made, checked or restored")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    step = models.CharField(max_length=200, blank=True, help_text="what it is doing now, or did last")
    progress_bytes = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)

    objects = VaultJobQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.backup_id} {self.status}"

    @property
    def unfinished(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

"""The memory domain's tables."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class EmbeddingSpace(models.Model):
    """The embedding provider, model and dimension the installation was set up with.

    One row, written on first start. Vectors from another model or dimension are not
    comparable with the stored ones, so a configuration that differs stops startup.
    """

    provider = models.CharField(max_length=32)
    model = models.CharField(max_length=200)
    dimension = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.provider}:{self.model} ({self.dimension}-d)"


class Inference(models.Model):
    """Ledger of remote provider calls (LLM, remote embeddings): one row per HTTP attempt."""

    class Kind(models.TextChoices):
        CHAT = "chat", "chat"
        EMBEDDING = "embedding", "embedding"

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    provider = models.CharField(max_length=32)
    model = models.CharField(max_length=200)
    purpose = models.CharField(max_length=64)
    attempt = models.PositiveSmallIntegerField(default=1)
    input_tokens = models.PositiveIntegerField(null=True, blank=True)
    output_tokens = models.PositiveIntegerField(null=True, blank=True)
    latency_ms = models.FloatField()
    ok = models.BooleanField()
    error = models.CharField(max_length=500, blank=True)
    run_id = models.UUIDField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        status = "ok" if self.ok else f"error: {self.error}"
        return f"{self.kind} {self.model} for {self.purpose}: {status}"

"""The memory domain's tables."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField


class MemoryType(models.TextChoices):
    FACT = "fact"
    PREFERENCE = "preference"
    GOAL = "goal"
    DECISION = "decision"
    SKILL = "skill"
    OPINION = "opinion"
    EVENT = "event"
    PROCEDURE = "procedure"
    OBSERVATION = "observation"
    CONCLUSION = "conclusion"
    RAW = "raw"


class MemorySource(models.TextChoices):
    EXTRACTION = "extraction"
    RAW_INPUT = "raw_input"
    AGENT = "agent"
    THINK = "think"
    SYSTEM = "system"


class MemoryQuerySet(models.QuerySet["Memory"]):
    def live(self) -> MemoryQuerySet:
        """Not deleted and not expired. Superseded memories stay live: they remain reachable."""
        now = timezone.now()
        return self.filter(deleted_at__isnull=True).exclude(expires_at__lte=now)

    def current(self) -> MemoryQuerySet:
        """Live and not superseded."""
        return self.live().filter(valid_to__isnull=True)

    def visible_to(self, actor) -> MemoryQuerySet:  # noqa: ANN001 - a user or the system actor
        from rbac.policy import visible_memories_filter

        return self.filter(visible_memories_filter(actor))


class Memory(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    content = models.TextField()
    memory_type = models.CharField(max_length=16, choices=MemoryType.choices, default=MemoryType.FACT)
    certainty = models.PositiveSmallIntegerField(default=80)
    importance = models.FloatField(default=0.5)
    source = models.CharField(max_length=16, choices=MemorySource.choices, default=MemorySource.EXTRACTION)
    content_key = models.CharField(max_length=64, help_text="sha256 of write domain, type and normalized text")
    user_id = models.CharField(max_length=200, help_text="whose memory this is (the subject), not who wrote it")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="authored_memories")
    agent_id = models.CharField(max_length=200, blank=True)
    rbac_scope = models.CharField(max_length=100, help_text="write domain: default, rbac:group:<id>, rbac:dedup:<id>")
    metadata = models.JSONField(default=dict, blank=True)
    context_tags = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    embedding = VectorField(dimensions=settings.HELIX_EMBEDDING_DIM)
    search_vector = models.GeneratedField(
        expression=SearchVector("content", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    valid_from = models.DateTimeField(default=timezone.now, help_text="event time")
    valid_to = models.DateTimeField(null=True, blank=True, help_text="set when superseded")
    expires_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    immutable = models.BooleanField(default=False)
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)

    objects = MemoryQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            HnswIndex(
                name="memory_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(fields=["search_vector"], name="memory_search_vector_gin"),
            models.Index(fields=["rbac_scope", "user_id", "content_key"], name="memory_domain_owner_key"),
            models.Index(fields=["user_id", "-created_at"], name="memory_owner_recent"),
            models.Index(fields=["valid_from"], name="memory_event_time"),
        ]
        constraints = [
            # One live, current memory per owner and fingerprint in a write domain.
            models.UniqueConstraint(
                fields=["rbac_scope", "user_id", "content_key"],
                condition=models.Q(deleted_at__isnull=True, valid_to__isnull=True),
                name="memory_one_live_fingerprint",
            ),
            models.CheckConstraint(condition=models.Q(certainty__lte=100), name="memory_certainty_0_100"),
            models.CheckConstraint(
                condition=models.Q(importance__gte=0) & models.Q(importance__lte=1), name="memory_importance_0_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.memory_type}: {self.content[:60]}"


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

"""Source documents and their chunks.

A document is stored once per content in a write domain and owner, with the text that chunk
offsets point into. Its chunks are searchable rows of their own, carrying what a read filters
on (the owner, the workspaces that see them, current or superseded, forgotten) so recall reads
one table, as it reads ``memory_memory``. A new version of a document supersedes its chunks
prospectively: the old ones stay, marked, and the text they point into is kept in its history.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from rbac.actors import Actor
from rbac.policy import visible_memories_filter


class DocumentStatus(models.TextChoices):
    PENDING = "pending"  # accepted, no chunk yet: the worker reads it (a file) and stores them
    PARTIAL = "partial"  # some chunks stored: still running, or stopped with ``error`` and resumable
    COMPLETE = "complete"
    FAILED = "failed"  # stopped with ``error`` before its first chunk; resumable
    REFUSED = "refused"  # the worker could not read the file sent (``error`` says why): nothing to resume


class DocumentQuerySet(models.QuerySet["Document"]):
    def live(self) -> DocumentQuerySet:
        return self.filter(deleted_at__isnull=True)

    def visible_to(self, actor: Actor) -> DocumentQuerySet:
        # The same workspaces a memory is seen through: the filter reads ``visible_in``.
        return self.filter(visible_memories_filter(actor))


class ChunkQuerySet(models.QuerySet["Chunk"]):
    def live(self) -> ChunkQuerySet:
        """Current chunks of documents not forgotten: what recall may return."""
        return self.filter(deleted_at__isnull=True, superseded_at__isnull=True)

    def visible_to(self, actor: Actor) -> ChunkQuerySet:
        return self.filter(visible_memories_filter(actor))


class Document(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    title = models.CharField(max_length=300)
    source_url = models.CharField(max_length=2000, blank=True, default="")
    content_type = models.CharField(max_length=64, help_text="text/markdown, application/pdf or text/html")
    metadata = models.JSONField(default=dict, blank=True)
    text = models.TextField(help_text="the text of the current version: chunk offsets point into it")
    source_file = models.BinaryField(
        null=True, blank=True, editable=False, help_text="the file sent, until the worker has read its text"
    )
    sha256 = models.CharField(max_length=64, help_text="of the text sent, or of the file sent")
    chars = models.PositiveIntegerField(default=0, help_text="length of the text")
    version = models.PositiveIntegerField(default=1)
    page_starts = ArrayField(
        models.PositiveIntegerField(), default=list, blank=True, help_text="offset of each page (PDF)"
    )
    user_id = models.CharField(max_length=200, help_text="whose document this is (the subject)")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    agent_id = models.CharField(max_length=200, blank=True)
    rbac_scope = models.CharField(max_length=100, help_text="write domain: default, rbac:group:<id>, rbac:dedup:<id>")
    workspace = models.ForeignKey(
        "rbac.Workspace", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="written to"
    )
    visible_in = ArrayField(models.IntegerField(), default=list, blank=True, help_text="workspace ids")
    status = models.CharField(max_length=16, choices=DocumentStatus.choices, default=DocumentStatus.PENDING)
    chunks_total = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    chunk_chars = models.PositiveIntegerField(help_text="the chunking this version was cut with")
    chunk_overlap = models.PositiveIntegerField()
    extract = models.BooleanField(default=False, help_text="memories are extracted from each chunk")
    # A database default too: the release before this one inserts documents without them.
    chunks_extracted = models.PositiveIntegerField(
        default=0, db_default=0, help_text="chunks of this version read for memories"
    )
    memories_forgotten = models.PositiveIntegerField(
        default=0, db_default=0, help_text="memories only earlier versions said, forgotten once this version was stored"
    )
    error = models.TextField(blank=True, help_text="why the last run stopped; empty when it did not")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = DocumentQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            GinIndex(fields=["visible_in"], name="document_visible_in_gin"),
            models.Index(fields=["user_id", "-created_at"], name="document_owner_recent"),
        ]
        constraints = [
            # One live document per content, and one per title and source, for an owner in a domain.
            models.UniqueConstraint(
                fields=["rbac_scope", "user_id", "sha256"],
                condition=models.Q(deleted_at__isnull=True),
                name="document_one_live_content",
            ),
            models.UniqueConstraint(
                fields=["rbac_scope", "user_id", "title", "source_url"],
                condition=models.Q(deleted_at__isnull=True),
                name="document_one_live_title_source",
            ),
            models.CheckConstraint(
                condition=models.Q(chunks_done__lte=models.F("chunks_total")), name="document_done_within_total"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} (v{self.version}, {self.status})"


class DocumentHistory(models.Model):
    """A version replaced (with its text, which its superseded chunks point into) or a forget."""

    class Action(models.TextChoices):
        REPLACE = "REPLACE"
        FORGET = "FORGET"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="history")
    action = models.CharField(max_length=16, choices=Action.choices)
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=300)
    sha256 = models.CharField(max_length=64)
    text = models.TextField(blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "document history"

    def __str__(self) -> str:
        return f"{self.action} {self.document_id} v{self.version}"


class Chunk(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    version = models.PositiveIntegerField()
    position = models.PositiveIntegerField(help_text="0-based, in the order of the text")
    text = models.TextField(help_text="exactly the document's text[char_start:char_end]")
    heading = models.CharField(max_length=500, blank=True, help_text="the headings it sits under, outermost first")
    char_start = models.PositiveIntegerField()
    char_end = models.PositiveIntegerField()
    page = models.PositiveIntegerField(null=True, blank=True, help_text="1-based page it starts on (PDF)")
    user_id = models.CharField(max_length=200)
    visible_in = ArrayField(models.IntegerField(), default=list, blank=True, help_text="workspace ids")
    embedding = VectorField(dimensions=settings.HELIX_EMBEDDING_DIM)
    search_vector = models.GeneratedField(
        expression=SearchVector("heading", "text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    created_at = models.DateTimeField(default=timezone.now)
    extracted_at = models.DateTimeField(null=True, blank=True, help_text="memories extracted from it (extract=true)")
    superseded_at = models.DateTimeField(null=True, blank=True, help_text="set when a new version replaced it")
    deleted_at = models.DateTimeField(null=True, blank=True, help_text="its document was forgotten")

    objects = ChunkQuerySet.as_manager()

    class Meta:
        ordering = ["document", "version", "position"]
        indexes = [
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(fields=["search_vector"], name="chunk_search_vector_gin"),
            GinIndex(fields=["visible_in"], name="chunk_visible_in_gin"),
            models.Index(fields=["user_id"], name="chunk_owner"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["document", "version", "position"], name="chunk_one_per_position"),
            models.CheckConstraint(condition=models.Q(char_end__gt=models.F("char_start")), name="chunk_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.document_id} v{self.version} #{self.position}"


class ExtractedFrom(models.Model):
    """EXTRACTED_FROM: a memory that extraction over a chunk wrote (``created``) or found known."""

    memory = models.ForeignKey("memory.Memory", on_delete=models.CASCADE, related_name="+")
    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, related_name="extracted")
    created = models.BooleanField(default=True, help_text="false: the memory was already known (deduplicated)")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["memory", "chunk"], name="extracted_from_once")]
        verbose_name_plural = "extracted from"

    def __str__(self) -> str:
        return f"{self.memory_id} extracted from {self.chunk_id}"

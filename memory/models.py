"""The memory domain's tables."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from memory.event_time import EARLIEST, LATEST
from rbac.actors import Actor
from rbac.policy import WriteDomain, visible_memories_filter


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
    # Allergies, conditions, diagnoses, medication: typed apart because they matter for safety.
    HEALTH = "health"


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

    def visible_to(self, actor: Actor) -> MemoryQuerySet:
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
    run_id = models.UUIDField(null=True, blank=True, help_text="the ingest run that wrote it (none for imports)")
    rbac_scope = models.CharField(max_length=100, help_text="write domain: default, rbac:group:<id>, rbac:dedup:<id>")
    metadata = models.JSONField(default=dict, blank=True)
    facets = models.JSONField(
        default=dict, blank=True, help_text="what the extractor read: attribute (subject, name, value), negation"
    )
    context_tags = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    # The workspaces the memory is visible through, set once when it is written (its write
    # domain's visible_in). An array with a GIN index lets every read intersect visibility
    # inside the index scans, so one tenant's searches never wade through another's rows.
    visible_in = ArrayField(models.IntegerField(), default=list, blank=True, help_text="workspace ids")
    embedding = VectorField(dimensions=settings.HELIX_EMBEDDING_DIM)
    search_vector = models.GeneratedField(
        expression=SearchVector("content", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    # What its owner said just before, in the same conversation (memory.ingest.preceding): recall
    # matches a question's words against it at a lower weight; the memory itself stays as said.
    context = models.TextField(blank=True, default="", help_text="what was said just before, for recall")
    context_vector = models.GeneratedField(
        expression=SearchVector("context", config="english"),
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

    objects = MemoryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "memories"
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
            GinIndex(fields=["context_vector"], name="memory_context_vector_gin"),
            GinIndex(fields=["visible_in"], name="memory_visible_in_gin"),
            # A filter's metadata equality (memory.search.filters) is containment, `metadata @> {...}`.
            GinIndex(fields=["metadata"], opclasses=["jsonb_path_ops"], name="memory_metadata_gin"),
            models.Index(fields=["rbac_scope", "user_id", "content_key"], name="memory_domain_owner_key"),
            models.Index(fields=["user_id", "-created_at"], name="memory_owner_recent"),
            models.Index(fields=["valid_from"], name="memory_event_time"),
            # The lifecycle sweep's deletion of what expired: most memories never expire.
            models.Index(fields=["expires_at"], name="memory_expiry", condition=models.Q(expires_at__isnull=False)),
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
            # Every stored event time reads back (memory.event_time).
            models.CheckConstraint(
                condition=models.Q(valid_from__gte=EARLIEST) & models.Q(valid_from__lte=LATEST),
                name="memory_valid_from_readable",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.memory_type}: {self.content[:60]}"

    @classmethod
    def written(cls, domain: WriteDomain, *, visible_in: list[int] | None = None, **fields: Any) -> Memory:
        """A new memory, not yet saved, written in ``domain``: its dedup scope and the workspaces
        that see it (``visible_in``: more of them, for an archive's rows). Every door that writes
        memories (the add's apply, its raw source, the bulk import, the archive's load) builds its
        rows here, so what every new row must get, it gets in one place."""
        seen_in = domain.visible_in if visible_in is None else visible_in
        return cls(rbac_scope=domain.scope, visible_in=seen_in, **fields)


class MemoryAccess(models.Model):
    """Recall reinforcement: how often and when a memory was last returned by a search.

    Kept apart from Memory so that counting a read rewrites this narrow row, not a memory
    row with a vector in an HNSW index (which would cost an index insertion per read)."""

    memory = models.OneToOneField(Memory, primary_key=True, on_delete=models.CASCADE, related_name="access")
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.memory_id}: {self.access_count}"


class EdgeType(models.TextChoices):
    SUPERSEDES = "SUPERSEDES"
    CONTRADICTS = "CONTRADICTS"
    IMPLIES = "IMPLIES"
    BECAUSE = "BECAUSE"
    SUPPORTS = "SUPPORTS"
    RELATES_TO = "RELATES_TO"
    PART_OF = "PART_OF"
    EXTENDS = "EXTENDS"
    DERIVES = "DERIVES"


class EdgeQuerySet(models.QuerySet["Edge"]):
    def live(self) -> EdgeQuerySet:
        return self.filter(expired_at__isnull=True)


class Edge(models.Model):
    """A typed, directed link from one memory to another."""

    source = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="edges_out")
    target = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="edges_in")
    edge_type = models.CharField(max_length=16, choices=EdgeType.choices)
    confidence = models.FloatField(default=1.0)
    reason = models.CharField(max_length=500, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    run_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    expired_at = models.DateTimeField(null=True, blank=True)

    objects = EdgeQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["source", "target", "edge_type"],
                condition=models.Q(expired_at__isnull=True),
                name="edge_one_live_per_type",
            ),
            models.CheckConstraint(condition=~models.Q(source=models.F("target")), name="edge_not_a_loop"),
        ]
        indexes = [models.Index(fields=["target", "edge_type"], name="edge_by_target")]

    def __str__(self) -> str:
        return f"{self.source_id} {self.edge_type} {self.target_id}"


class HistoryAction(models.TextChoices):
    UPDATE = "UPDATE"
    SUPERSEDE = "SUPERSEDE"
    CORRECT = "CORRECT"
    FORGET = "FORGET"
    RESTORE = "RESTORE"


class MemoryHistory(models.Model):
    """Every change of a memory's content or state, with what it was before."""

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="history")
    action = models.CharField(max_length=16, choices=HistoryAction.choices)
    old_content = models.TextField(blank=True)
    new_content = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.CharField(max_length=500, blank=True)
    run_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} {self.memory_id}"


class Entity(models.Model):
    """A named thing (person, place, project, path, identifier) within one write domain."""

    name = models.CharField(max_length=200)
    normalized_name = models.CharField(max_length=200)
    entity_type = models.CharField(max_length=32, default="name")
    rbac_scope = models.CharField(max_length=100)
    embedding = VectorField(dimensions=settings.HELIX_EMBEDDING_DIM, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    memories = models.ManyToManyField(Memory, through="Mention", related_name="entities")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["rbac_scope", "normalized_name", "entity_type"], name="entity_unique_in_domain"
            )
        ]
        verbose_name_plural = "entities"

    def __str__(self) -> str:
        return f"{self.name} ({self.entity_type})"


class Mention(models.Model):
    """MENTIONS: a memory names an entity."""

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="mentions")
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="mentions")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["memory", "entity"], name="mention_once")]
        indexes = [models.Index(fields=["entity", "memory"], name="mention_by_entity")]

    def __str__(self) -> str:
        return f"{self.memory_id} mentions {self.entity_id}"


class Concept(models.Model):
    """An ontology type memories are instances of (preference, skill, goal, achievement…)."""

    name = models.CharField(max_length=64, unique=True)
    description = models.CharField(max_length=300, blank=True)
    memories = models.ManyToManyField(Memory, through="InstanceOf", related_name="concepts")

    def __str__(self) -> str:
        return self.name


class InstanceOf(models.Model):
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="instance_of")
    concept = models.ForeignKey(Concept, on_delete=models.CASCADE, related_name="instances")
    confidence = models.FloatField(default=1.0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["memory", "concept"], name="instance_of_once")]

    def __str__(self) -> str:
        return f"{self.memory_id} is a {self.concept_id}"


class IngestRun(models.Model):
    """One add_memory call: what came in, each stage's status and timing, and the outcome."""

    class Status(models.TextChoices):
        STARTED = "started"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    user_id = models.CharField(max_length=200)
    rbac_scope = models.CharField(max_length=100, blank=True)
    workspace = models.ForeignKey("rbac.Workspace", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.TextField()
    message_hash = models.CharField(max_length=64, db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.STARTED)
    error_code = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    llm_calls = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(default=dict, blank=True)
    occurred_at = models.DateTimeField(null=True, blank=True, help_text="the event time the message came with")
    started_at = models.DateTimeField(default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    enrichment_due_at = models.DateTimeField(
        null=True, blank=True, help_text="its memories await enrichment since then (last queued); cleared once enriched"
    )

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(fields=["user_id", "rbac_scope", "-started_at"], name="ingestrun_owner_recent"),
            models.Index(
                fields=["enrichment_due_at"],
                name="ingestrun_enrichment_due",
                condition=models.Q(enrichment_due_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"run {self.id} {self.status}"


class IngestStage(models.Model):
    """One stage of a run, in order, with its debug output (extraction, candidates, decisions)."""

    class Status(models.TextChoices):
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        SKIPPED = "skipped"

    run = models.ForeignKey(IngestRun, on_delete=models.CASCADE, related_name="stages")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=32)
    status = models.CharField(max_length=16, choices=Status.choices)
    duration_ms = models.FloatField()
    error = models.TextField(blank=True)
    inference_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    output = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["run", "position"]
        constraints = [models.UniqueConstraint(fields=["run", "position"], name="stage_position_unique")]

    def __str__(self) -> str:
        return f"{self.name}: {self.status}"


class Profile(models.Model):
    """What is known of one owner in one workspace, always at hand: a **static** part (identity,
    stable preferences, background) and a **dynamic** part (current projects, recent context,
    open goals). Each line is ``{"text", "memory_ids", "kind"}`` and cites the memories it came
    from, all visible in the workspace. Refreshed by the worker after writes and forgets."""

    workspace = models.ForeignKey("rbac.Workspace", on_delete=models.CASCADE, related_name="+")
    user_id = models.CharField(max_length=200)
    static = models.JSONField(default=list, blank=True)
    dynamic = models.JSONField(default=list, blank=True)
    method = models.CharField(max_length=16, blank=True, help_text="rules or llm")
    sources = models.PositiveIntegerField(default=0, help_text="memories it was built from")
    stale = models.BooleanField(default=True, help_text="a write or forget since the last refresh")
    refreshed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "user_id"], name="profile_one_per_owner")]

    def __str__(self) -> str:
        return f"profile of {self.user_id} in {self.workspace_id}"


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


class ReembedJob(models.Model):
    """A switch of the installation to another embedding model (``manage.py reembed``): the
    target space, how far the embedding got, and the outcome. The newest row is the current or
    the last one; whether a process works on it now is told by its lock (``memory.reembed.jobs``)."""

    class Status(models.TextChoices):
        RUNNING = "running"  # embedding into the next columns, building their index, catching up
        SWITCHING = "switching"  # the short transaction that puts the new vectors in place
        DONE = "done"
        ABORTED = "aborted"

    provider = models.CharField(max_length=32)
    model = models.CharField(max_length=200)
    dimension = models.PositiveIntegerField()
    base_url = models.CharField(max_length=500, blank=True, help_text="the openai provider's endpoint")
    source = models.CharField(max_length=300, help_text="the embedding space it replaces")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    phase = models.CharField(max_length=64, blank=True, help_text="what a running job does now")
    done = models.PositiveBigIntegerField(default=0, help_text="rows embedded with the target model")
    total = models.PositiveBigIntegerField(default=0, help_text="rows to embed, as last counted")
    switch_ms = models.FloatField(null=True, blank=True, help_text="how long the switch held the tables")
    error = models.TextField(blank=True, help_text="why the last run stopped, if it failed")
    started_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"re-embed to {self.target} ({self.status})"

    @property
    def target(self) -> str:
        return f"{self.provider}:{self.model} ({self.dimension}-d)"


class CorpusTerm(models.Model):
    """BM25's corpus statistics, per corpus, visibility set and lexeme (memory.search.corpus).
    The lexeme ``''`` holds the set's row count and field-length sums. Written by the fold only."""

    corpus = models.CharField(max_length=16, help_text="memory or chunk")
    visibility = ArrayField(models.IntegerField(), help_text="the visible_in of the rows counted")
    term = models.TextField(help_text="a lexeme; empty: the set's totals")
    documents = models.BigIntegerField(help_text="rows holding the lexeme (the set's rows, for '')")
    own_length = models.BigIntegerField(default=0)
    context_length = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["corpus", "term", "visibility"], name="corpusterm_key"),
        ]

    def __str__(self) -> str:
        return f"{self.corpus} {self.visibility} {self.term!r}: {self.documents}"


class CorpusTermDelta(models.Model):
    """A change to ``CorpusTerm`` not yet folded into it: appended by triggers, never updated."""

    corpus = models.CharField(max_length=16)
    visibility = ArrayField(models.IntegerField())
    term = models.TextField()
    documents = models.BigIntegerField()
    own_length = models.BigIntegerField(default=0)
    context_length = models.BigIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["corpus", "term"], name="corpustermdelta_term")]

    def __str__(self) -> str:
        return f"{self.corpus} {self.visibility} {self.term!r}: {self.documents:+d}"


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


class Erasure(models.Model):
    """The ledger of erasures: one row per owner erased (in one workspace, or everywhere), kept
    so that a restore of an older backup erases them again before it serves. It names who and
    where, when, and how many rows went; never anything they said.

    A restore carries every row of the live ledger into the restored database and erases again
    each one the backup did not hold; ``reapplied`` lists those times (the backup and the rows)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    erased_at = models.DateTimeField(default=timezone.now, db_index=True)
    user_id = models.CharField(max_length=200, help_text="the owner erased")
    workspace = models.CharField(max_length=100, blank=True, help_text="its slug; blank: everywhere")
    requested_by = models.CharField(max_length=150, blank=True, help_text="who asked for it")
    rows_erased = models.PositiveIntegerField(default=0)
    reapplied = models.JSONField(default=list, blank=True, help_text="each restore that erased it again")

    class Meta:
        ordering = ["-erased_at"]

    def __str__(self) -> str:
        where = f" in {self.workspace}" if self.workspace else ""
        return f"erasure of {self.user_id}{where} at {self.erased_at:%Y-%m-%d %H:%M:%S}"

"""Categories: a tree of paths (``work/infrastructure``) per write domain, memories filed
under them (a memory may be in several), and the atlas snapshots the room draws.

A category belongs to one write domain, like an entity: a name one tenant invents is never
shown to another. Readers see a category only through the memories they can see."""

from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.utils import timezone

from memory.models import Memory

MAX_DEPTH = 4
MAX_SEGMENT = 40
MAX_PATH = MAX_DEPTH * (MAX_SEGMENT + 1)


class Category(models.Model):
    rbac_scope = models.CharField(max_length=100, help_text="write domain: default, rbac:group:<id>, rbac:dedup:<id>")
    path = models.CharField(max_length=MAX_PATH, help_text="lowercase segments joined by /, e.g. work/infrastructure")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    depth = models.PositiveSmallIntegerField(help_text="1 for a top-level category")
    # The category's own path and its ancestors' ("work", "work/infrastructure"): counting a
    # memory under every ancestor is one unnest, not a walk up the tree.
    lineage = ArrayField(models.CharField(max_length=MAX_PATH), default=list)
    created_at = models.DateTimeField(default=timezone.now)
    memories = models.ManyToManyField(Memory, through="Filing", related_name="categories")

    class Meta:
        verbose_name_plural = "categories"
        constraints = [models.UniqueConstraint(fields=["rbac_scope", "path"], name="category_unique_in_domain")]
        indexes = [models.Index(fields=["path"], name="category_path")]

    def __str__(self) -> str:
        return self.path

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


class Filing(models.Model):
    """IN_CATEGORY: a memory filed under a category, by the rules, the LLM or the backfill."""

    class Method(models.TextChoices):
        RULES = "rules"
        LLM = "llm"

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="filings")
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="filings")
    method = models.CharField(max_length=8, choices=Method.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["memory", "category"], name="filing_once")]
        indexes = [models.Index(fields=["category", "memory"], name="filing_by_category")]

    def __str__(self) -> str:
        return f"{self.memory_id} in {self.category_id}"


class AtlasSnapshot(models.Model):
    """What the atlas page draws, taken by a schedule: the biggest categories (exact counts) and
    the newest filed memories with their paths, owner and workspaces, so the page filters them
    without touching the memory table."""

    taken_at = models.DateTimeField(default=timezone.now, db_index=True)
    duration_ms = models.FloatField(default=0)
    memory_total = models.PositiveIntegerField(default=0, help_text="live, current memories filed anywhere")
    category_total = models.PositiveIntegerField(default=0, help_text="distinct paths before the cap")
    # [{"path", "count", "newest"}], largest first, at most HELIX_ATLAS_MAX_CATEGORIES
    categories = models.JSONField(default=list)
    # [{"id", "text", "owner", "ws": [ids], "paths": [...], "updated"}], newest first,
    # at most HELIX_ATLAS_MAX_MEMORIES
    memories = models.JSONField(default=list)

    class Meta:
        ordering = ["-taken_at"]

    def __str__(self) -> str:
        return f"atlas {self.taken_at:%Y-%m-%d %H:%M}"


class CategoryCount(models.Model):
    """How many live, current memories are filed under a path (or below it), per visibility set
    (a memory's ``visible_in``) and owner; ``user_id`` null: every owner of the set. Kept by
    triggers and the fold (memory.categories.counts), never written by hand."""

    visibility = ArrayField(models.IntegerField(), help_text="the visible_in of the memories counted")
    # Null, not "": an owner id is never null, and the unique key treats nulls as one value.
    user_id = models.CharField(  # noqa: DJ001
        max_length=200, null=True, blank=True, help_text="their owner; null: every owner"
    )
    path = models.CharField(max_length=MAX_PATH)
    memories = models.BigIntegerField()
    newest = models.DateTimeField(null=True, help_text="the newest update of a memory counted in")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user_id", "path", "visibility"], name="categorycount_key", nulls_distinct=False
            )
        ]
        indexes = [GinIndex(fields=["visibility"], name="categorycount_visibility")]

    def __str__(self) -> str:
        return f"{self.path} {self.visibility} {self.user_id or '*'}: {self.memories}"


class CategoryCountDelta(models.Model):
    """A change to ``CategoryCount`` not yet folded into it: appended by triggers, never updated."""

    visibility = ArrayField(models.IntegerField())
    user_id = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001  (as in CategoryCount)
    path = models.CharField(max_length=MAX_PATH)
    memories = models.BigIntegerField()
    newest = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"{self.path} {self.visibility} {self.user_id or '*'}: {self.memories:+d}"

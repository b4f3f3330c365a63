"""Writes: categories made on demand, memories filed under them (rules, or the LLM told the
categories its write domain already has), and the atlas snapshot."""

from __future__ import annotations

import json
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone
from pydantic import BaseModel, Field

from memory.categories.counts import category_counts
from memory.categories.models import AtlasSnapshot, Category, Filing
from memory.categories.paths import lineage, path_normalize
from memory.categories.rules import Signals, paths_by_rules
from memory.models import InstanceOf, Memory, Mention
from memory.providers import LLM, ProviderError
from memory.search.scope import current_memory


def category_ensure(*, scope: str, paths: Iterable[str]) -> dict[str, Category]:
    """The categories of ``paths`` in write domain ``scope``, with their ancestors, made as needed."""
    wanted = sorted({p for path in paths for p in lineage(path)}, key=lambda p: p.count("/"))
    found = {c.path: c for c in Category.objects.filter(rbac_scope=scope, path__in=wanted)}
    for path in wanted:
        if path in found:
            continue
        parent_path = path.rpartition("/")[0]
        Category.objects.bulk_create(
            [
                Category(
                    rbac_scope=scope,
                    path=path,
                    parent=found.get(parent_path),
                    depth=path.count("/") + 1,
                    lineage=lineage(path),
                )
            ],
            ignore_conflicts=True,  # made meanwhile by another worker
        )
        found[path] = Category.objects.get(rbac_scope=scope, path=path)
    return found


def memories_file(*, memory_ids: Iterable[uuid.UUID | str], llm: LLM | None = None, run_id=None) -> dict[str, str]:
    """File memories under categories; idempotent (a filing is made once). Returns memory id →
    how it was filed (``llm`` or ``rules``). The LLM, when given and enabled, is asked once per
    write domain; whatever it leaves out or gets wrong is filed by the rules."""
    memories = list(Memory.objects.filter(id__in=list(memory_ids)).only("id", "content", "memory_type", "rbac_scope"))
    if not memories:
        return {}
    signals = _signals(memories)
    limit = settings.HELIX_CATEGORIES_PER_MEMORY
    chosen: dict[uuid.UUID, tuple[list[str], str]] = {}
    by_scope: dict[str, list[Memory]] = defaultdict(list)
    for memory in memories:
        by_scope[memory.rbac_scope].append(memory)
    for scope, group in by_scope.items():
        proposed = _paths_by_llm(scope, group, llm, run_id) if llm is not None and llm.enabled else {}
        for memory in group:
            if proposed.get(memory.id):
                chosen[memory.id] = (proposed[memory.id][:limit], Filing.Method.LLM)
            else:
                chosen[memory.id] = (paths_by_rules(signals[memory.id], limit=limit), Filing.Method.RULES)
    with transaction.atomic():
        for scope, group in by_scope.items():
            categories = category_ensure(scope=scope, paths=[p for m in group for p in chosen[m.id][0]])
            Filing.objects.bulk_create(
                [
                    Filing(memory_id=m.id, category=categories[path], method=chosen[m.id][1])
                    for m in group
                    for path in chosen[m.id][0]
                ],
                ignore_conflicts=True,
            )
    return {str(memory_id): method for memory_id, (_, method) in chosen.items()}


def _signals(memories: list[Memory]) -> dict[uuid.UUID, Signals]:
    ids = [m.id for m in memories]
    concepts: dict[uuid.UUID, set[str]] = defaultdict(set)
    for memory_id, name in InstanceOf.objects.filter(memory_id__in=ids).values_list("memory_id", "concept__name"):
        concepts[memory_id].add(name)
    entity_types: dict[uuid.UUID, set[str]] = defaultdict(set)
    for memory_id, kind in Mention.objects.filter(memory_id__in=ids).values_list("memory_id", "entity__entity_type"):
        entity_types[memory_id].add(kind)
    return {
        m.id: Signals(
            content=m.content,
            memory_type=m.memory_type,
            concepts=frozenset(concepts[m.id] | {m.memory_type}),
            entity_types=frozenset(entity_types[m.id]),
        )
        for m in memories
    }


# --- the LLM path ----------------------------------------------------------------------------


class LLMFiling(BaseModel):
    index: int = Field(ge=0, le=10_000)
    categories: list[str] = Field(default_factory=list, max_length=10)


class LLMFilingReply(BaseModel):
    items: list[LLMFiling] = Field(default_factory=list, max_length=200)


_SYSTEM = """You file long-term memories under categories.
A category is a path of 1 to 4 lowercase segments joined by "/", from general to specific:
work/infrastructure, health/allergies, preferences/food, family, travel.
- Reuse one of the existing categories whenever one fits; make a new path only when none does,
  and then under an existing parent if one fits.
- Give each memory 1 to {limit} categories, the most specific first.
- Reply with one item per memory, by its index."""


def _paths_by_llm(scope: str, memories: list[Memory], llm: LLM, run_id) -> dict[uuid.UUID, list[str]]:
    """The LLM's paths per memory (normalized, valid ones only); {} when it cannot answer."""
    prompt = json.dumps(
        {
            "existing_categories": category_paths_in_domain(scope=scope, limit=settings.HELIX_CATEGORIES_PROMPT_MAX),
            "memories": [{"index": i, "content": m.content, "type": m.memory_type} for i, m in enumerate(memories)],
        },
        ensure_ascii=False,
    )
    try:
        reply = llm.complete_json(
            purpose="categorize",
            system=_SYSTEM.format(limit=settings.HELIX_CATEGORIES_PER_MEMORY),
            prompt=prompt,
            schema=LLMFilingReply,
            run_id=run_id,
        )
    except ProviderError:
        return {}
    proposed: dict[uuid.UUID, list[str]] = {}
    for item in reply.items:
        if item.index < len(memories):
            paths = [p for p in (path_normalize(text) for text in item.categories) if p]
            proposed[memories[item.index].id] = list(dict.fromkeys(paths))
    return proposed


def category_paths_in_domain(*, scope: str, limit: int) -> list[str]:
    """The write domain's leaf-most categories, most used first: what the LLM is told exists."""
    rows = (
        Category.objects.filter(rbac_scope=scope, filings__isnull=False)
        .values("path")
        .annotate(uses=Count("filings"))
        .order_by("-uses", "path")[:limit]
    )
    return [r["path"] for r in rows]


# --- the atlas snapshot ----------------------------------------------------------------------

_EXCERPT = 140


def atlas_snapshot_take() -> AtlasSnapshot:
    """Count every live, current memory under its categories (and their ancestors), keep the
    biggest categories and the newest filed memories, and forget older snapshots."""
    started = time.perf_counter()
    categories, category_total, memory_total = _atlas_categories(settings.HELIX_ATLAS_MAX_CATEGORIES)
    memories = _atlas_memories(settings.HELIX_ATLAS_MAX_MEMORIES)
    snapshot = AtlasSnapshot.objects.create(
        taken_at=timezone.now(),
        duration_ms=(time.perf_counter() - started) * 1000,
        memory_total=memory_total,
        category_total=category_total,
        categories=categories,
        memories=memories,
    )
    keep = AtlasSnapshot.objects.order_by("-taken_at").values_list("id", flat=True)[
        : settings.HELIX_ATLAS_KEEP_SNAPSHOTS
    ]
    AtlasSnapshot.objects.exclude(id__in=list(keep)).delete()
    return snapshot


_LIVE = current_memory("m")


def _atlas_categories(cap: int) -> tuple[list[dict], int, int]:
    """The biggest ``cap`` categories as a global admin's list_categories counts them, how many
    there are, and how many memories are filed anywhere."""
    every = category_counts(readable=None, user_id=None, under=None, limit=None, offset=0)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT count(*) FROM memory_memory m
                WHERE {_LIVE} AND EXISTS (SELECT 1 FROM categories_filing f WHERE f.memory_id = m.id)"""
        )
        (memory_total,) = cursor.fetchone()
    categories = [{"path": path, "count": n, "newest": newest.isoformat()} for path, n, newest in every[:cap]]
    return categories, len(every), memory_total


def _atlas_memories(cap: int) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH newest AS MATERIALIZED (
                SELECT m.id, m.content, m.user_id, m.visible_in, m.updated_at FROM memory_memory m
                WHERE {_LIVE} AND EXISTS (SELECT 1 FROM categories_filing f WHERE f.memory_id = m.id)
                ORDER BY m.updated_at DESC LIMIT %s
            )
            SELECT n.id, left(n.content, %s), n.user_id, n.visible_in, n.updated_at,
                   array_agg(DISTINCT c.path ORDER BY c.path)
            FROM newest n JOIN categories_filing f ON f.memory_id = n.id
            JOIN categories_category c ON c.id = f.category_id
            GROUP BY n.id, n.content, n.user_id, n.visible_in, n.updated_at
            ORDER BY n.updated_at DESC""",
            [cap, _EXCERPT],
        )
        return [
            {"id": str(i), "text": text, "owner": owner, "ws": ws, "paths": paths, "updated": updated.isoformat()}
            for i, text, owner, ws, updated, paths in cursor.fetchall()
        ]

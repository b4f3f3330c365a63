"""Reads: the categories an actor can see (only through memories it can see), and what the
atlas draws (the latest snapshot, filtered) with its drill-down into one category."""

from __future__ import annotations

import math
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.postgres.search import SearchQuery
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from helixsite.errors import InvalidInput
from memory.categories.counts import category_counts
from memory.categories.models import AtlasSnapshot, Filing
from memory.categories.paths import path_normalize
from memory.models import Memory
from rbac.actors import Actor
from rbac.policy import is_global_admin, readable_workspace_ids


def category_path_parse(text: str, *, field: str) -> str:
    """A caller's path, normalized; a text that names no path is refused with ``field``."""
    path = path_normalize(text)
    if path is None:
        raise InvalidInput(
            "A category is 1 to 4 segments of letters, digits and hyphens joined by /.",
            code="invalid_category",
            field=field,
        )
    return path


def category_list(
    *, actor: Actor, user_id: str | None = None, parent: str | None = None, limit: int = 100, offset: int = 0
) -> list[dict[str, Any]]:
    """Categories with at least one live, current memory ``actor`` can see, each counted over
    those memories only (a memory counts under its categories and their ancestors). Largest
    first. Read from the kept counts (memory.categories.counts), not from the filings."""
    rows = category_counts(
        readable=None if is_global_admin(actor) else readable_workspace_ids(actor),
        user_id=user_id,
        under=category_path_parse(parent, field="parent") if parent else None,
        limit=limit,
        offset=offset,
    )
    return [
        {
            "path": path,
            "name": path.rsplit("/", 1)[-1],
            "parent": path.rpartition("/")[0] or None,
            "depth": path.count("/") + 1,
            "memory_count": count,
            "last_updated": newest.isoformat() if newest else None,
        }
        for path, count, newest in rows
    ]


# --- the atlas ---------------------------------------------------------------------------------

_cache_lock = threading.Lock()
_cached: dict[str, AtlasSnapshot] = {}


def atlas_snapshot_latest() -> AtlasSnapshot | None:
    """The newest snapshot; its rows are read once per process (snapshots never change)."""
    latest = AtlasSnapshot.objects.order_by("-taken_at").values_list("id", flat=True).first()
    if latest is None:
        return None
    with _cache_lock:
        cached = _cached.get("latest")
    if cached is not None and cached.id == latest:
        return cached
    snapshot = AtlasSnapshot.objects.get(pk=latest)
    with _cache_lock:
        _cached["latest"] = snapshot
    return snapshot


@dataclass(frozen=True)
class AtlasFilter:
    workspace_id: int | None = None
    owner: str = ""
    focus: str = ""
    query: str = ""

    @property
    def narrows_memories(self) -> bool:
        return bool(self.workspace_id or self.owner or self.query)


@dataclass
class AtlasTree:
    """What the picture draws: nested categories sized by memories, with their freshness."""

    nodes: list[dict[str, Any]]
    shown_categories: int
    shown_memories: int
    sampled: bool  # counted over the snapshot's newest memories, not over every memory
    paths: list[str] = field(default_factory=list)


FRESHNESS_DAYS = 30.0


def atlas_tree(*, snapshot: AtlasSnapshot, where: AtlasFilter, now: datetime | None = None) -> AtlasTree:
    """The snapshot's categories under the focus, as a tree. Without memory filters the counts
    are the snapshot's exact ones; with a workspace, owner or query they are counted over the
    newest memories it kept (at most HELIX_ATLAS_MAX_MEMORIES)."""
    now = now or timezone.now()
    if where.narrows_memories:
        counts, shown = _counted_from_memories(snapshot.memories, where)
    else:
        counts = {c["path"]: (c["count"], c["newest"]) for c in snapshot.categories}
        shown = snapshot.memory_total
    if where.focus:
        counts = {p: v for p, v in counts.items() if p == where.focus or p.startswith(where.focus + "/")}
    return AtlasTree(
        nodes=_nest(counts, now),
        shown_categories=len(counts),
        shown_memories=shown,
        sampled=where.narrows_memories,
        paths=sorted(counts),
    )


def _counted_from_memories(memories: list[dict], where: AtlasFilter) -> tuple[dict[str, tuple[int, str]], int]:
    needle = where.query.lower()
    counts: dict[str, tuple[int, str]] = {}
    shown = 0
    for row in memories:
        if where.workspace_id and where.workspace_id not in row["ws"]:
            continue
        if where.owner and row["owner"] != where.owner:
            continue
        if needle and needle not in row["text"].lower():
            continue
        shown += 1
        for path in {p for leaf in row["paths"] for p in _lineage(leaf)}:
            count, newest = counts.get(path, (0, row["updated"]))
            counts[path] = (count + 1, max(newest, row["updated"]))
    return counts, shown


def _lineage(path: str) -> list[str]:
    segments = path.split("/")
    return ["/".join(segments[: i + 1]) for i in range(len(segments))]


def _nest(counts: dict[str, tuple[int, str]], now: datetime) -> list[dict[str, Any]]:
    """Flat paths → the nested ``children`` lists a treemap takes. A category whose parent was
    cut by the cap hangs from the nearest ancestor that was kept."""
    nodes: dict[str, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    # Parents before children; among siblings the largest first.
    for path in sorted(counts, key=lambda p: (p.count("/"), -counts[p][0], p)):
        count, newest = counts[path]
        age_days = max(0.0, (now - datetime.fromisoformat(newest)).total_seconds() / 86400)
        node = {
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "value": count,
            "freshness": round(math.exp(-age_days / FRESHNESS_DAYS), 3),
            "newest": newest,
            "children": [],
        }
        nodes[path] = node
        ancestor = next((nodes[a] for a in reversed(_lineage(path)[:-1]) if a in nodes), None)
        (ancestor["children"] if ancestor else roots).append(node)
    for node in nodes.values():
        if not node["children"]:
            del node["children"]
    return roots


def atlas_memories(*, path: str, where: AtlasFilter) -> QuerySet[Memory]:
    """One category's live, current memories (filed in it or below): the drill-down, read from
    the database, not the snapshot. The caller orders and pages it (by event time, indexed)."""
    filed = Filing.objects.filter(memory=OuterRef("pk"), category__lineage__contains=[path])
    memories = Memory.objects.current().filter(Exists(filed)).defer("embedding", "search_vector")
    if where.workspace_id:
        memories = memories.filter(visible_in__contains=[where.workspace_id])
    if where.owner:
        memories = memories.filter(user_id=where.owner)
    if where.query:
        memories = memories.filter(search_vector=SearchQuery(where.query, config="english"))
    return memories


def memories_unfiled_count() -> int:
    """How many live memories are in no category (what the backfill has to do)."""
    return Memory.objects.live().filter(filings__isnull=True).count()


def memories_unfiled_ids(*, after: uuid.UUID | None, limit: int) -> list[uuid.UUID]:
    """Live memories in no category, by id after ``after``: the backfill's keyset."""
    unfiled = Memory.objects.live().filter(filings__isnull=True)
    if after is not None:
        unfiled = unfiled.filter(id__gt=after)
    return list(unfiled.order_by("id").values_list("id", flat=True)[:limit])

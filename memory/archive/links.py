"""The rows that hang on memories, as an import writes them once the memories are in: mentions,
concepts, filings, history, access counters, and edges between two memories. Each kind's
``_<kind>_row`` reads a row of the archive, ``_<kind>`` writes a batch in one transaction and
answers (written, already here, left out). A row is left out when its memory is not here: the
memory was merged into an equal one (edges are moved onto that one instead)."""

from __future__ import annotations

import uuid
from collections.abc import Collection
from typing import Any

from django.db import transaction

from memory.archive.files import ArchiveError, moment_or_none, moment_read, uuid_read
from memory.archive.targets import Targets
from memory.categories.models import Filing
from memory.categories.paths import path_normalize
from memory.categories.services import category_ensure
from memory.models import Concept, Edge, Entity, InstanceOf, Memory, MemoryAccess, MemoryHistory, Mention

Counts = tuple[int, int, int]


class LinkWriter:
    def __init__(self, targets: Targets) -> None:
        self.targets = targets
        self.merged: dict[uuid.UUID, uuid.UUID] = {}  # archived memory id → the equal memory here
        self.entities: dict[int, tuple[str, str, str]] = {}  # archived entity id → (scope, name, type) here

    def _here(self, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
        """The memories of ``ids`` stored here, with their write domain."""
        return dict(Memory.objects.filter(id__in=ids).values_list("id", "rbac_scope"))

    # --- mentions -----------------------------------------------------------------------------

    def _mentions_row(self, row: dict[str, Any]) -> tuple[uuid.UUID, tuple[str, str, str]]:
        entity = self.entities.get(int(row["entity"]))
        if entity is None:
            raise ArchiveError(f"names entity {row['entity']}, which entities.jsonl does not hold")
        return uuid.UUID(row["memory"]), entity

    def _mentions(self, rows: list[tuple[uuid.UUID, tuple[str, str, str]]]) -> Counts:
        with transaction.atomic():
            here = self._here({memory for memory, _ in rows})
            keys = {key for _, key in rows}
            entity_ids = {
                (scope, name, kind): pk
                for pk, scope, name, kind in Entity.objects.filter(
                    rbac_scope__in={k[0] for k in keys}, normalized_name__in={k[1] for k in keys}
                ).values_list("id", "rbac_scope", "normalized_name", "entity_type")
            }
            wanted = {(memory, entity_ids[key]) for memory, key in rows if memory in here and key in entity_ids}
            existing = set(Mention.objects.filter(memory_id__in=here).values_list("memory_id", "entity_id"))
            fresh = wanted - existing
            Mention.objects.bulk_create(
                [Mention(memory_id=m, entity_id=e) for m, e in sorted(fresh)], ignore_conflicts=True
            )
        return len(fresh), len(wanted) - len(fresh), len(rows) - len(wanted)

    # --- concepts (INSTANCE_OF) ---------------------------------------------------------------

    def _concepts_row(self, row: dict[str, Any]) -> tuple[uuid.UUID, str, float]:
        return uuid.UUID(row["memory"]), str(row["concept"]), float(row["confidence"])

    def _concepts(self, rows: list[tuple[uuid.UUID, str, float]]) -> Counts:
        with transaction.atomic():
            here = self._here({memory for memory, _, _ in rows})
            kept = [r for r in rows if r[0] in here]
            ids = self._concept_ids({name for _, name, _ in kept})
            existing = set(InstanceOf.objects.filter(memory_id__in=here).values_list("memory_id", "concept_id"))
            fresh = []
            for memory, name, confidence in kept:
                if (memory, ids[name]) not in existing:
                    existing.add((memory, ids[name]))
                    fresh.append(InstanceOf(memory_id=memory, concept_id=ids[name], confidence=confidence))
            InstanceOf.objects.bulk_create(fresh, ignore_conflicts=True)
        return len(fresh), len(kept) - len(fresh), len(rows) - len(kept)

    def _concept_ids(self, names: set[str]) -> dict[str, int]:
        """Concepts by name; one this installation does not know yet is added."""
        ids = dict(Concept.objects.filter(name__in=names).values_list("name", "id"))
        if len(ids) < len(names):
            Concept.objects.bulk_create([Concept(name=n) for n in names - set(ids)], ignore_conflicts=True)
            ids = dict(Concept.objects.filter(name__in=names).values_list("name", "id"))
        return ids

    # --- category filings (IN_CATEGORY) -------------------------------------------------------

    def _filings_row(self, row: dict[str, Any]) -> tuple[uuid.UUID, str, str, Any]:
        path = row["path"]
        if not isinstance(path, str) or path_normalize(path) != path:
            raise ArchiveError(f"{path!r} is not a category path")
        return uuid.UUID(row["memory"]), path, str(row["method"]), moment_read(row["created_at"])

    def _filings(self, rows: list[tuple[uuid.UUID, str, str, Any]]) -> Counts:
        with transaction.atomic():
            here = self._here({memory for memory, *_ in rows})
            kept = [r for r in rows if r[0] in here]
            paths_by_scope: dict[str, set[str]] = {}
            for memory, path, _, _ in kept:
                paths_by_scope.setdefault(here[memory], set()).add(path)
            categories = {
                (scope, path): category.pk
                for scope, paths in paths_by_scope.items()
                for path, category in category_ensure(scope=scope, paths=paths).items()
            }
            existing = set(Filing.objects.filter(memory_id__in=here).values_list("memory_id", "category_id"))
            fresh = []
            for memory, path, method, created_at in kept:
                category = categories[(here[memory], path)]
                if (memory, category) not in existing:
                    existing.add((memory, category))
                    fresh.append(Filing(memory_id=memory, category_id=category, method=method, created_at=created_at))
            Filing.objects.bulk_create(fresh, ignore_conflicts=True)
        return len(fresh), len(kept) - len(fresh), len(rows) - len(kept)

    # --- history ------------------------------------------------------------------------------

    def _history_row(self, row: dict[str, Any]) -> tuple[MemoryHistory, str | None]:
        entry = MemoryHistory(
            memory_id=uuid.UUID(row["memory"]),
            action=row["action"],
            old_content=row["old_content"],
            new_content=row["new_content"],
            details=row["details"],
            reason=row["reason"],
            run_id=uuid_read(row["run_id"]),
            created_at=moment_read(row["created_at"]),
        )
        return entry, row["actor"]

    def _history(self, rows: list[tuple[MemoryHistory, str | None]]) -> Counts:
        actors = self.targets.user_ids({name for _, name in rows})
        with transaction.atomic():
            here = self._here({entry.memory_id for entry, _ in rows})
            return history_store(
                MemoryHistory, rows, parent="memory_id", here=here, actors=actors,
                same=("memory_id", "action", "created_at", "old_content", "new_content"),
            )  # fmt: skip

    # --- access counters ----------------------------------------------------------------------

    def _access_row(self, row: dict[str, Any]) -> MemoryAccess:
        return MemoryAccess(
            memory_id=uuid.UUID(row["memory"]),
            access_count=int(row["access_count"]),
            last_accessed_at=moment_or_none(row["last_accessed_at"]),
        )

    def _access(self, rows: list[MemoryAccess]) -> Counts:
        with transaction.atomic():
            here = self._here({r.memory_id for r in rows})
            kept = [r for r in rows if r.memory_id in here]
            existing = set(MemoryAccess.objects.filter(memory_id__in=here).values_list("memory_id", flat=True))
            fresh = [r for r in kept if r.memory_id not in existing]
            MemoryAccess.objects.bulk_create(fresh, ignore_conflicts=True)
        return len(fresh), len(kept) - len(fresh), len(rows) - len(kept)

    # --- edges --------------------------------------------------------------------------------

    def _edges_row(self, row: dict[str, Any]) -> tuple[Edge, str | None]:
        source, target = uuid.UUID(row["source"]), uuid.UUID(row["target"])
        edge = Edge(
            source_id=self.merged.get(source, source),
            target_id=self.merged.get(target, target),
            edge_type=row["edge_type"],
            confidence=float(row["confidence"]),
            reason=row["reason"],
            run_id=uuid_read(row["run_id"]),
            created_at=moment_read(row["created_at"]),
            expired_at=moment_or_none(row["expired_at"]),
        )
        return edge, row["created_by"]

    def _edges(self, rows: list[tuple[Edge, str | None]]) -> Counts:
        creators = self.targets.user_ids({name for _, name in rows})
        with transaction.atomic():
            here = self._here({e.source_id for e, _ in rows} | {e.target_id for e, _ in rows})
            kept = [
                (e, n) for e, n in rows if e.source_id in here and e.target_id in here and e.source_id != e.target_id
            ]
            stored = Edge.objects.filter(
                source_id__in={e.source_id for e, _ in kept}, target_id__in={e.target_id for e, _ in kept}
            ).values_list("source_id", "target_id", "edge_type", "created_at", "expired_at")
            known = {(s, t, kind, at) for s, t, kind, at, _ in stored}
            live = {(s, t, kind) for s, t, kind, _, expired in stored if expired is None}
            fresh = []
            for edge, name in kept:
                triple = (edge.source_id, edge.target_id, edge.edge_type)
                if (*triple, edge.created_at) in known or (edge.expired_at is None and triple in live):
                    continue
                known.add((*triple, edge.created_at))
                if edge.expired_at is None:
                    live.add(triple)
                edge.created_by_id = creators[name]
                fresh.append(edge)
            Edge.objects.bulk_create(fresh, ignore_conflicts=True)
        return len(fresh), len(kept) - len(fresh), len(rows) - len(kept)


def history_store(
    model: Any,
    rows: list[tuple[Any, str | None]],
    *,
    parent: str,
    here: Collection[Any],
    actors: dict[str | None, int | None],
    same: tuple[str, ...],
) -> Counts:
    """Store the history rows (each with its actor's username) whose ``parent`` is ``here``,
    but for those already stored, equal on the ``same`` fields; in the caller's transaction."""
    kept = [(entry, name) for entry, name in rows if getattr(entry, parent) in here]
    existing = set(model.objects.filter(**{f"{parent}__in": here}).values_list(*same))
    fresh = []
    for entry, name in kept:
        key = tuple(getattr(entry, field) for field in same)
        if key not in existing:
            existing.add(key)
            entry.actor_id = actors[name]
            fresh.append(entry)
    model.objects.bulk_create(fresh)
    return len(fresh), len(kept) - len(fresh), len(rows) - len(kept)

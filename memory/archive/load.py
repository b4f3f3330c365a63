"""Write an archive's rows, kind by kind in the order of ``files.KINDS``, in batches that are a
transaction each (one a deadlock beside a live write undoes is run again at once:
helixsite.db.conflicts). Every batch first reads what is already here, so an import run again
after an interruption continues where it stopped and ends as one uninterrupted run would: nothing
is written twice. Memories, documents and chunks keep their ids.

A memory equal to one already stored here (same write domain, owner and fingerprint, both
current) is not stored a second time: it is *merged*, its edges and EXTRACTED_FROM links point to
the one here, and what hangs on it alone (history, mentions, filings…) is left out. Documents
equal to one here are left out likewise (``memory.archive.documents``)."""

from __future__ import annotations

import itertools
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import DatabaseError, transaction

from helixsite.db import conflicts
from memory.archive.documents import DocumentWriter
from memory.archive.files import (
    KINDS,
    ArchiveError,
    archive_opened,
    file_name,
    moment_or_none,
    moment_read,
    rows_at_once,
    rows_read,
    uuid_read,
)
from memory.archive.targets import Targets, targets_resolve
from memory.archive.vectors import VECTOR_INDEXES, embed_into, vector_read
from memory.archive.verify import archive_verify, embedding_check
from memory.ingest.atoms import content_key
from memory.models import Entity, Memory
from memory.profiles import profiles_touch_memories
from rbac.policy import WriteDomain, provenance_record

Progress = Callable[[str, int, int], None]  # kind, rows just read, rows in the archive
Row = tuple[int, dict[str, Any]]  # line number, row read


@dataclass
class KindCount:
    written: int = 0
    present: int = 0  # already here: written by an earlier run, or equal to a row here
    left_out: int = 0  # merged memories, and what hangs on them alone

    def add(self, written: int, present: int, left_out: int) -> None:
        self.written += written
        self.present += present
        self.left_out += left_out

    @property
    def read(self) -> int:
        return self.written + self.present + self.left_out


@dataclass
class ImportReport:
    counts: dict[str, KindCount]
    indexes_rebuilt: list[str]  # the kinds whose vector index was built at the end
    seconds: float

    @property
    def rows(self) -> int:
        return sum(count.read for count in self.counts.values())


def archive_import(
    *,
    path: Path,
    actor: User | None = None,
    workspace_map: dict[str, str] | None = None,
    reembed: bool = False,
    batch_size: int = 500,
    rebuild_index: str = "auto",
    progress: Progress = lambda kind, rows, total: None,
) -> ImportReport:
    """Verify the archive and map its names onto this installation (refusing, with nothing
    written, whatever does not fit), then load it."""
    started = time.perf_counter()
    with archive_opened(path) as folder:
        manifest = archive_verify(folder)
        embedding_check(manifest, reembed=reembed)
        targets = targets_resolve(manifest=manifest, workspace_map=workspace_map or {}, actor=actor)
        loader = Loader(folder, targets, reembed=reembed, batch_size=batch_size)
        loader.progress = lambda kind, rows: progress(kind, rows, manifest.total_rows)
        rebuilt = []
        for kind, entry in manifest.files.items():  # an archive of an earlier version holds fewer kinds
            if kind not in VECTOR_INDEXES:
                loader.load(kind)
            elif _indexed_load(loader, kind, incoming=entry.rows, rebuild_index=rebuild_index):
                rebuilt.append(kind)
    return ImportReport(counts=loader.counts, indexes_rebuilt=rebuilt, seconds=time.perf_counter() - started)


def _indexed_load(loader: Loader, kind: str, *, incoming: int, rebuild_index: str) -> bool:
    """Large loads go in without the vector index, built once at the end (as import_jsonl does).
    An index missing at the start was dropped by an import that was killed: it is built too."""
    index = VECTOR_INDEXES[kind]
    drop = incoming > 0 and (rebuild_index == "always" or (rebuild_index == "auto" and index.load_is_large(incoming)))
    build = drop or not index.exists()
    if drop:
        index.drop()
    try:
        loader.load(kind)
    finally:
        if build:
            index.build()
    return build


@dataclass
class Incoming:
    memory: Memory
    domain: WriteDomain

    @property
    def fingerprint(self) -> tuple[str, str, str]:
        return (self.memory.rbac_scope, self.memory.user_id, self.memory.content_key)

    @property
    def current(self) -> bool:
        return self.memory.deleted_at is None and self.memory.valid_to is None


class Loader(DocumentWriter):
    def __init__(self, folder: Path, targets: Targets, *, reembed: bool, batch_size: int) -> None:
        super().__init__(targets, reembed=reembed)
        self.folder = folder
        self.batch_size = batch_size
        self.counts = {kind: KindCount() for kind in KINDS}
        self.progress: Callable[[str, int], None] = lambda kind, rows: None

    def load(self, kind: str) -> None:
        write = getattr(self, f"_{kind}")
        rows, size = rows_read(self.folder, kind), rows_at_once(kind, self.batch_size)
        while batch := list(itertools.islice(rows, size)):
            lines = f"{file_name(kind)} lines {batch[0][0]}–{batch[-1][0]}"
            try:
                # Decoded again for each attempt: what a transaction undone whole had set on them goes too.
                counts = conflicts.run_again_on_deadlock(lambda: write(self._decoded(kind, batch)), what=lines)
                self.counts[kind].add(*counts)
            except DatabaseError as exc:
                raise ArchiveError(
                    f"{lines} could not be written "
                    f"({str(exc).strip().splitlines()[0]}). The batches before them are imported; run the import "
                    "again once the cause is fixed, it continues from there."
                ) from None
            self.progress(kind, len(batch))

    def _decoded(self, kind: str, batch: list[Row]) -> list[Any]:
        """Each row as the writer of its kind takes it; a row that does not fit names its line."""
        decode = getattr(self, f"_{kind}_row")
        decoded = []
        for line, row in batch:
            try:
                decoded.append(decode(row))
            except ArchiveError as exc:
                raise ArchiveError(f"{file_name(kind)} line {line}: {exc.message}") from None
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                problem = f"no field {exc}" if isinstance(exc, KeyError) else str(exc)
                raise ArchiveError(f"{file_name(kind)} line {line}: {problem}.") from None
        return decoded

    # --- memories -----------------------------------------------------------------------------

    def _memories_row(self, row: dict[str, Any]) -> Incoming:
        domain = self.targets.domain(row["write_domain"])
        embedding = None if self.reembed else vector_read(row["embedding"])
        key = row["content_key"]
        if row["rbac_scope"] != domain.scope:  # the fingerprint is salted with the write domain
            key = content_key(scope=domain.scope, memory_type=row["memory_type"], content=row["content"])
        memory = Memory.written(
            domain,
            visible_in=self.targets.visible_in(domain, row["visible_in"]),
            id=uuid.UUID(row["id"]),
            content=row["content"],
            context=row["context"],
            metadata=row["metadata"],
            facets=row["facets"],
            context_tags=list(row["context_tags"]),
            memory_type=row["memory_type"],
            importance=float(row["importance"]),
            certainty=int(row["certainty"]),
            source=row["source"],
            content_key=key,
            user_id=row["user_id"],
            author_id=self.targets.author_id(row["author"]),
            agent_id=row["agent_id"],
            run_id=uuid_read(row["run_id"]),
            embedding=embedding,
            created_at=moment_read(row["created_at"]),
            updated_at=moment_read(row["updated_at"]),
            valid_from=moment_read(row["valid_from"]),
            valid_to=moment_or_none(row["valid_to"]),
            expires_at=moment_or_none(row["expires_at"]),
            deleted_at=moment_or_none(row["deleted_at"]),
            immutable=bool(row["immutable"]),
        )
        return Incoming(memory, domain)

    def _memories(self, incoming: list[Incoming]) -> tuple[int, int, int]:
        present = set(Memory.objects.filter(id__in=[i.memory.id for i in incoming]).values_list("id", flat=True))
        fresh = self._unmerged([i for i in incoming if i.memory.id not in present])
        if self.reembed and fresh:
            embed_into([i.memory for i in fresh], [i.memory.content for i in fresh])
        by_domain: dict[str, list[Incoming]] = defaultdict(list)
        for item in fresh:
            by_domain[item.domain.scope].append(item)
        with transaction.atomic():
            Memory.objects.bulk_create([i.memory for i in fresh])
            for group in by_domain.values():
                provenance_record(memory_ids=[i.memory.id for i in group], domain=group[0].domain)
            # Their owners' profiles here are rebuilt with them (a profile is derived, never archived).
            profiles_touch_memories([i.memory for i in fresh])
        return len(fresh), len(present), len(incoming) - len(fresh) - len(present)

    def _unmerged(self, fresh: list[Incoming]) -> list[Incoming]:
        """``fresh`` without the current memories equal to one already here or earlier in the batch."""
        current = [i for i in fresh if i.current]
        if not current:
            return fresh
        holders = {
            (scope, owner, key): pk
            for pk, scope, owner, key in Memory.objects.filter(
                deleted_at__isnull=True,
                valid_to__isnull=True,
                rbac_scope__in={i.memory.rbac_scope for i in current},
                user_id__in={i.memory.user_id for i in current},
                content_key__in=[i.memory.content_key for i in current],
            ).values_list("id", "rbac_scope", "user_id", "content_key")
        }
        kept = []
        for item in fresh:
            if item.current:
                holder = holders.setdefault(item.fingerprint, item.memory.id)
                if holder != item.memory.id:
                    self.merged[item.memory.id] = holder
                    continue
            kept.append(item)
        return kept

    # --- entities -----------------------------------------------------------------------------

    def _entities_row(self, row: dict[str, Any]) -> ArchivedEntity:
        vector = row["embedding"]
        entity = Entity(
            name=row["name"],
            normalized_name=row["normalized_name"],
            entity_type=row["entity_type"],
            rbac_scope=self.targets.domain(row["write_domain"]).scope,
            created_at=moment_read(row["created_at"]),
            embedding=None if vector is None or self.reembed else vector_read(vector),
        )
        return ArchivedEntity(int(row["id"]), entity, embed=vector is not None and self.reembed)

    def _entities(self, rows: list[ArchivedEntity]) -> tuple[int, int, int]:
        unique: dict[tuple[str, str, str], ArchivedEntity] = {}
        for row in rows:
            self.entities[row.archived_id] = row.key
            unique.setdefault(row.key, row)
        existing = set(
            Entity.objects.filter(
                rbac_scope__in={k[0] for k in unique}, normalized_name__in={k[1] for k in unique}
            ).values_list("rbac_scope", "normalized_name", "entity_type")
        )
        fresh = [row for key, row in unique.items() if key not in existing]
        to_embed = [row.entity for row in fresh if row.embed]
        if to_embed:
            embed_into(to_embed, [e.name for e in to_embed])
        with transaction.atomic():
            Entity.objects.bulk_create([row.entity for row in fresh], ignore_conflicts=True)
        return len(fresh), len(rows) - len(fresh), 0


@dataclass
class ArchivedEntity:
    archived_id: int
    entity: Entity
    embed: bool  # its vector is to be computed here

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.entity.rbac_scope, self.entity.normalized_name, self.entity.entity_type)

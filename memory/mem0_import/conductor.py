"""The mem0 import's conductor: the workspace and its writer checked, the store read whole (a
config or a store that cannot be read refuses the import with nothing written), then the
memories not here yet, oldest first, embedded in batches and written one transaction each.

Resumable and idempotent: a memory keeps mem0's id, so one already here (imported by an earlier
run, even one killed midway: each memory is written whole or not at all) is passed over, and a
second run imports nothing new."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from django.contrib.auth.models import User
from django.db import DatabaseError
from django.utils import timezone

from helixsite.db import conflicts
from helixsite.errors import ApplicationError, Forbidden, NotFound
from memory.embedding_space import embedding_space_check
from memory.ingest.enrich import memories_enrich
from memory.mem0_import.plan import Planned, memory_plan
from memory.mem0_import.store import StoreEntry, store_read
from memory.mem0_import.write import Written, memory_import
from memory.models import Memory
from memory.profiles import profiles_touch
from memory.providers import ProviderError, get_embedder
from rbac.actors import SYSTEM
from rbac.policy import Action, WriteDomain, workspace_get, write_domain_resolve

DELETED_OWNER = "mem0-deleted"
LOOKUP_CHUNK = 5000  # ids looked up at once


@dataclass
class ImportReport:
    workspace: str
    found: int = 0  # memories the store holds, or held (its history names them)
    imported: int = 0  # written by this run (planned, with dry_run)
    already_here: int = 0  # written by an earlier run
    elsewhere: int = 0  # of those, not in this workspace (an import into another one)
    revisions: int = 0  # UPDATE events written as revisions
    forgotten: int = 0  # memories mem0 deleted, written forgotten
    repeats: int = 0  # kept superseded by a memory of the same owner saying the same
    left_out: dict[str, int] = field(default_factory=dict)  # why → how many
    history_read: bool = True
    dry_run: bool = False
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


Progress = Callable[[ImportReport, int, int], None]  # the report so far, memories just handled, all of them


def mem0_import(
    *,
    config_path: Path,
    workspace: str,
    actor: User,
    deleted_owner: str = DELETED_OWNER,
    skip_deleted: bool = False,
    without_history: bool = False,
    dry_run: bool = False,
    batch_size: int = 128,
    progress: Progress = lambda report, handled, total: None,
) -> ImportReport:
    started = time.perf_counter()
    domain = _domain(workspace, actor)
    store = store_read(config_path=config_path, without_history=without_history)
    report = ImportReport(workspace=domain.workspace.slug, found=len(store.memories), dry_run=dry_run)
    report.history_read = store.history_read
    planned = _planned(store.memories, report, deleted_owner=deleted_owner, skip_deleted=skip_deleted)
    todo = _not_here(planned, report, domain)
    if not dry_run:  # a run killed between a batch's writes and its enrichment left those plain
        pending = {p.memory_id for p in todo}
        memories_enrich(memory_ids=_unenriched([p.memory_id for p in planned if p.memory_id not in pending], domain))
    progress(report, len(planned) - len(todo), len(planned))
    if dry_run:
        report.imported = len(todo)
        report.revisions = sum(p.revisions for p in todo)
        report.forgotten = sum(p.deleted for p in todo)
    else:
        for batch in _batches(todo, batch_size):
            _write(batch, _embedded([p.text for p in batch]), domain, actor, report)
            progress(report, len(batch), len(planned))
    report.seconds = time.perf_counter() - started
    return report


def _domain(workspace: str, actor: User) -> WriteDomain:
    """Where the memories go, checked before the store is read: it must exist, and ``actor`` write there."""
    try:
        found = workspace_get(actor=SYSTEM, ref=workspace, action=Action.READ)
    except NotFound:
        raise NotFound(
            f"No workspace {workspace!r} here: name an existing one by slug or id (manage.py create_workspace "
            "makes one). Nothing was imported.",
            field="workspace",
        ) from None
    try:
        return write_domain_resolve(actor=actor, group_id=found.pk)
    except NotFound:
        raise Forbidden(
            f"{actor.get_username()} may not write in workspace {found.slug}: grant it a role there "
            "(manage.py grant_role) or name another --actor. Nothing was imported.",
            details={"action": str(Action.WRITE)},
        ) from None


def _planned(
    entries: list[StoreEntry], report: ImportReport, *, deleted_owner: str, skip_deleted: bool
) -> list[Planned]:
    """What to write for each memory, oldest first; those left out counted by why."""
    now = timezone.now()
    planned, left_out = [], Counter[str]()
    for entry in entries:
        if skip_deleted and entry.payload is None:
            left_out["deleted in mem0 (--skip-deleted)"] += 1
            continue
        plan = memory_plan(entry, deleted_owner=deleted_owner, now=now)
        if isinstance(plan, str):
            left_out[plan] += 1
        else:
            planned.append(plan)
    report.left_out = dict(left_out)
    return sorted(planned, key=lambda p: (p.steps[0].at, str(p.memory_id)))


def _not_here(planned: list[Planned], report: ImportReport, domain: WriteDomain) -> list[Planned]:
    """The memories no run imported yet: none here has their id."""
    here: dict[uuid.UUID, list[int]] = {}
    for chunk in _batches(planned, LOOKUP_CHUNK):
        ids = [p.memory_id for p in chunk]
        here.update(Memory.objects.filter(id__in=ids).values_list("id", "visible_in"))
    report.already_here = len(here)
    report.elsewhere = sum(domain.workspace.pk not in seen for seen in here.values())
    return [p for p in planned if p.memory_id not in here]


def _unenriched(ids: list[uuid.UUID], domain: WriteDomain) -> list[uuid.UUID]:
    """Of the memories an earlier run imported here, those filed under no category: its
    enrichment had not run when it stopped."""
    found: list[uuid.UUID] = []
    for start in range(0, len(ids), LOOKUP_CHUNK):
        here = Memory.objects.filter(id__in=ids[start : start + LOOKUP_CHUNK], rbac_scope=domain.scope)
        found += here.filter(filings__isnull=True).values_list("id", flat=True)
    return found


def _embedded(texts: list[str]) -> np.ndarray:
    """This installation's vectors, before any transaction: a provider that fails writes nothing."""
    embedding_space_check()
    try:
        return get_embedder().embed(texts, purpose="import")
    except ProviderError as exc:
        raise ApplicationError(
            f"The embedding provider failed ({exc}). The memories before this batch are imported; run the import "
            "again once it answers, it continues from there.",
            code=exc.code,
            status=503,
        ) from None


def _write(batch: list[Planned], vectors: np.ndarray, domain: WriteDomain, actor: User, report: ImportReport) -> None:
    owners: set[str] = set()
    try:
        for planned, vector in zip(batch, vectors, strict=True):
            written = _written(planned, vector, domain, actor)
            owners.add(planned.owner)
            report.imported += 1
            report.revisions += written.revisions
            report.forgotten += written.forgotten
            report.repeats += written.repeat
    finally:
        # Once a batch rather than once a memory: each touch of a fresh profile queues its refresh;
        # and enriched as an add's memories are (concepts, categories, entity vectors), in one pass.
        for owner in owners:
            profiles_touch(user_id=owner, workspace_ids=domain.visible_in)
        memories_enrich(memory_ids=[p.memory_id for p in batch])


def _written(planned: Planned, vector: np.ndarray, domain: WriteDomain, actor: User) -> Written:
    try:
        return conflicts.run_again_on_deadlock(
            lambda: memory_import(planned=planned, vector=vector, domain=domain, author=actor),
            what=f"mem0 memory {planned.memory_id}",
        )
    except DatabaseError as exc:
        raise ApplicationError(
            f"mem0 memory {planned.memory_id} could not be written ({str(exc).strip().splitlines()[0]}). "
            "The memories before it are imported; run the import again once the cause is fixed, it continues "
            "from there.",
            code="import_failed",
        ) from None


def _batches(items: list[Planned], size: int) -> Iterator[list[Planned]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]

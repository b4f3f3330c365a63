"""Bulk loading (import_jsonl): one memory a row, exact-fingerprint dedup only, batched
embedding and inserts. For a load large against what is stored, the HNSW index is dropped
first and built once at the end: building it is far cheaper than inserting into it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from helixsite.db import conflicts
from helixsite.errors import InvalidInput
from memory.embedding_space import embedding_space_check
from memory.event_time import moment_parse
from memory.ingest.atoms import EntityRef, content_key
from memory.ingest.english import scores
from memory.ingest.english.attributes import find_attribute
from memory.ingest.english.entities import find_entities
from memory.ingest.english.memory_types import classify
from memory.ingest.english.negation import is_negated
from memory.models import Entity, Memory, MemorySource, MemoryType, Mention
from memory.providers import get_embedder
from rbac.policy import WriteDomain, provenance_record, write_domain_resolve

HNSW_INDEX = "memory_embedding_hnsw"
HNSW_DDL = (
    "CREATE INDEX IF NOT EXISTS {name} ON memory_memory USING hnsw (embedding vector_cosine_ops) "
    "WITH (m = 16, ef_construction = 64)"
)
TYPES = set(MemoryType.values)


@dataclass
class ImportRow:
    line: int
    user_id: str
    content: str
    memory_type: str
    group_id: str | None
    metadata: dict
    valid_from: datetime | None
    agent_id: str


@dataclass
class ImportReport:
    read: int = 0
    stored: int = 0
    duplicates: int = 0
    errors: list[str] = field(default_factory=list)
    index_rebuilt: bool = False


def parse_rows(lines: Iterable[str], *, default_group: str | None) -> Iterator[ImportRow | str]:
    """Yield a row per JSON line, or an error text naming the line and the field."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            yield _row(number, data, default_group)
        except (ValueError, InvalidInput) as exc:
            yield f"line {number}: {getattr(exc, 'message', exc)}"


def _row(number: int, data: Any, default_group: str | None) -> ImportRow:
    if not isinstance(data, dict):
        raise InvalidInput("not a JSON object")
    content = data.get("content", data.get("message"))
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content is missing or empty")
    user_id = data.get("user_id")
    if not isinstance(user_id, str) or not user_id.strip():
        raise InvalidInput("user_id is missing")
    memory_type = data.get("memory_type") or classify(content)
    if memory_type not in TYPES:
        raise InvalidInput(f"memory_type {memory_type!r} is not one of {', '.join(sorted(TYPES))}")
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise InvalidInput("metadata must be an object")
    when = data.get("occurred_at")
    if when not in (None, "") and not isinstance(when, str):
        raise InvalidInput("occurred_at must be an RFC 3339 date-time or YYYY-MM-DD")
    valid_from = moment_parse(when, field="occurred_at") if when else None
    group = data.get("group_id", default_group)
    return ImportRow(
        number,
        user_id.strip(),
        content.strip(),
        memory_type,
        None if group is None else str(group),
        metadata,
        valid_from,
        str(data.get("agent_id", ""))[:200],
    )


def import_rows(
    *,
    actor: User,
    rows: list[ImportRow],
    batch_size: int,
    rebuild_index: str = "auto",
    progress: Callable[[int], None] = lambda n: None,
) -> ImportReport:
    report = ImportReport(read=len(rows))
    domains = {group: write_domain_resolve(actor=actor, group_id=group) for group in {r.group_id for r in rows}}
    drop = rebuild_index == "always" or (rebuild_index == "auto" and load_is_large(len(rows)))
    if drop:
        vector_index_drop()
    try:
        for start in range(0, len(rows), batch_size):
            batch = rows[start : start + batch_size]
            stored, duplicates = _load_batch(actor, batch, domains)
            report.stored += stored
            report.duplicates += duplicates
            progress(len(batch))
    finally:
        if drop:
            vector_index_build()
            report.index_rebuilt = True
    return report


def load_is_large(incoming: int) -> bool:
    """Whether a load of ``incoming`` memories is better done without the vector index."""
    return incoming >= settings.HELIX_IMPORT_REBUILD_MIN_ROWS and incoming >= Memory.objects.count() * 0.2


def _load_batch(actor: User, batch: list[ImportRow], domains: dict[str | None, WriteDomain]) -> tuple[int, int]:
    keyed: dict[tuple[str, str, str], ImportRow] = {}
    for row in batch:
        scope = domains[row.group_id].scope
        keyed.setdefault(
            (scope, row.user_id, content_key(scope=scope, memory_type=row.memory_type, content=row.content)), row
        )
    # All three columns, so the fingerprint's unique index answers: on the key alone this
    # would read the whole table once per batch.
    existing = set(
        Memory.objects.current()
        .filter(
            rbac_scope__in={s for s, _, _ in keyed},
            user_id__in={u for _, u, _ in keyed},
            content_key__in=[k for _, _, k in keyed],
        )
        .values_list("rbac_scope", "user_id", "content_key")
    )
    fresh = [(key, row) for key, row in keyed.items() if key not in existing]
    if not fresh:
        return 0, len(batch)
    vectors = get_embedder().embed([row.content for _, row in fresh], purpose="import")
    now = timezone.now()
    memories = [
        _memory(actor, key, row, vector, domains[row.group_id], now)
        for (key, row), vector in zip(fresh, vectors, strict=True)
    ]
    groups = [row.group_id for _, row in fresh]
    created = conflicts.run_again_on_deadlock(
        lambda: _batch_write(memories, groups, domains), what=f"The import's batch from line {batch[0].line}"
    )
    return len(created), len(batch) - len(created)


def _batch_write(memories: list[Memory], groups: list[str | None], domains: dict[str | None, WriteDomain]) -> set:
    """The batch's memories (each in the workspace of its row's ``groups`` entry), their provenance
    and entities, in one transaction: a deadlock beside a live write (the same entities named in
    another order) undoes it whole, so it is run again (helixsite.db.conflicts)."""
    with transaction.atomic():
        Memory.objects.bulk_create(memories, ignore_conflicts=True)
        embedding_space_check()  # after the insert: a re-embed's switch it waited on is seen
        created = set(Memory.objects.filter(id__in=[m.id for m in memories]).values_list("id", flat=True))
        for group, domain in domains.items():
            ids = [m.id for m, g in zip(memories, groups, strict=True) if g == group and m.id in created]
            provenance_record(memory_ids=ids, domain=domain)
        entities_link([m for m in memories if m.id in created])
    return created


def _memory(
    actor: User, key: tuple[str, str, str], row: ImportRow, vector: Any, domain: WriteDomain, now: datetime
) -> Memory:
    attribute = find_attribute(row.content, row.user_id)
    facets = {"negated": is_negated(row.content), **({"attribute": attribute.as_list()} if attribute else {})}
    return Memory.written(
        domain,
        content=row.content,
        memory_type=row.memory_type,
        source=MemorySource.AGENT,
        content_key=key[2],
        user_id=row.user_id,
        author=actor,
        agent_id=row.agent_id,
        metadata=row.metadata,
        facets=facets,
        embedding=vector,
        importance=scores.importance(row.content, row.memory_type, 0),
        certainty=scores.certainty(row.content),
        created_at=now,
        updated_at=now,
        valid_from=row.valid_from or now,
    )


def entities_link(memories: list[Memory]) -> None:
    """The entities the memories' texts name, upserted in their write domains, and a MENTIONS
    link from each memory (for memories stored as given: this import's, the mem0 import's)."""
    pairs = [(m, e) for m in memories for e in find_entities(m.content, subject=m.user_id)[:10]]
    if not pairs:
        return
    wanted: dict[tuple[str, str, str], EntityRef] = {}
    for memory, entity in pairs:
        wanted.setdefault((memory.rbac_scope, entity.normalized[:200], entity.entity_type), entity)
    Entity.objects.bulk_create(
        [
            Entity(name=e.name[:200], normalized_name=n, entity_type=t, rbac_scope=s)
            for (s, n, t), e in sorted(wanted.items())
        ],
        ignore_conflicts=True,
    )
    ids = {
        (s, n, t): pk
        for pk, s, n, t in Entity.objects.filter(
            rbac_scope__in={s for s, _, _ in wanted}, normalized_name__in={n for _, n, _ in wanted}
        ).values_list("id", "rbac_scope", "normalized_name", "entity_type")
    }
    mentions = [Mention(memory=m, entity_id=ids[(m.rbac_scope, e.normalized[:200], e.entity_type)]) for m, e in pairs]
    Mention.objects.bulk_create(mentions, ignore_conflicts=True)


def vector_index_drop() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {HNSW_INDEX}")


def vector_index_build() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '512MB'")
        cursor.execute(HNSW_DDL.format(name=HNSW_INDEX))
        cursor.execute("RESET maintenance_work_mem")

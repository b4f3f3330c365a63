"""Stage 5: write the decisions in one transaction.

Writes for one owner in one write domain are serialized by a transaction-scoped
advisory lock, and the fingerprints are checked again under it: two identical calls
at the same time store one memory. Every lock a message takes comes after that one
lock, so concurrent writes never deadlock. The messages of one call are written in one
transaction, one after the other (``OwnerWrites``): what the first establishes under the
lock holds for the others.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from memory.embedding_space import embedding_space_check
from memory.ingest.atoms import Atom
from memory.ingest.decide import Decision, Op
from memory.ingest.updates import ValueUpdate
from memory.lifecycle import expired_holders_retire, expiries_exist, expiry_renew
from memory.models import EdgeType, Entity, HistoryAction, Memory, Mention
from memory.revisions import edge_add, edges_add, memory_rewrite, memory_supersede
from rbac.policy import WriteDomain, provenance_record


@dataclass
class Outcome:
    memory_ids: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deduped: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    # current memories a new one gives a later value of a thing they name among other things
    superseded_in_part: list[str] = field(default_factory=list)
    contradicted: list[str] = field(default_factory=list)
    needs_clarification: list[dict[str, str]] = field(default_factory=list)
    # atom index → the memory that now holds it (new, updated or already stored)
    holders: dict[int, str] = field(default_factory=dict)
    # atom index → the memories its new memory superseded in part
    in_part: dict[int, list[str]] = field(default_factory=dict)
    # the RELATES_TO edges of the new memories (source, target, type, reason, confidence), made together
    relations: list[tuple[uuid.UUID, uuid.UUID, str, str, float]] = field(default_factory=list)


@dataclass
class WriteRequest:
    atoms: list[Atom]
    decisions: list[Decision]
    vectors: np.ndarray
    keys: list[str]
    domain: WriteDomain
    author: User
    user_id: str
    agent_id: str
    metadata: dict
    valid_from: datetime
    source: str
    run_id: uuid.UUID
    context: str = ""  # what was said just before the message (memory.ingest.preceding)
    expires_at: datetime | None = None  # when the memories it writes stop being recalled
    # atom index → the memories the new one supersedes beside its decision (memory.ingest.updates)
    value_updates: list[list[ValueUpdate]] = field(default_factory=list)
    # The owner's current memories holding the keys (key → id) as the candidates' statement found
    # them: trusted only once the transaction held the owner's lock before that statement ran.
    key_holders: dict[str, str] | None = None


@dataclass
class OwnerWrites:
    """The writes of one transaction for one owner in one write domain, one message after the
    other; a message that fails ends them (its savepoint, rolled back, may take locks with it).

    The first takes the owner's write lock, which the transaction then holds to its end, and checks
    the embedding space last: from then on the transaction holds the memory table, which a re-embed
    must have to itself to switch the space, so the space cannot change before the transaction ends.
    The messages after it need neither again.

    ``expiring``: a memory of the owner in the domain may carry an expiry (one did when the first
    message took the lock, forgotten ones included, since a restore brings one back without the
    lock; or these writes gave one). Until then no memory of the owner has an expired fingerprint
    to give up or an expiry to renew, and the statements that would look for them are not sent."""

    begun: bool = False
    expiring: bool = False


def apply(request: WriteRequest, writes: OwnerWrites | None = None) -> Outcome:
    """Write ``request``'s decisions; ``writes``: the messages written before it in the same
    transaction, if any."""
    writes = writes or OwnerWrites()
    outcome = Outcome()
    now = timezone.now()
    scope = request.domain.scope
    # No savepoint of its own: a caller inside a transaction undoes a failed message with its own.
    with transaction.atomic(savepoint=False):
        if not writes.begun:
            owner_lock(scope, request.user_id)
            writes.expiring = expiries_exist(scope=scope, user_id=request.user_id)
        writes.expiring = writes.expiring or request.expires_at is not None
        if writes.expiring:
            expired_holders_retire(scope=scope, user_id=request.user_id, keys=request.keys, now=now)
        # Read again unless the candidates' statement already read them under the lock (a message
        # after the first of a transaction) and no expired holder was retired since.
        locked_before = writes.begun and not writes.expiring and request.key_holders is not None
        stored = dict(request.key_holders or {}) if locked_before else _stored_keys(request)
        created: dict[int, Memory] = {}
        for index, decision in enumerate(request.decisions):
            _apply_one(request, index, decision, stored, created, outcome, now, writes.expiring)
        # What each new memory relates to, in one statement (nothing above reads them).
        edges_add(actor=request.author, edges=outcome.relations, run_id=request.run_id)
        provenance_record(memory_ids=[m.id for m in created.values()], domain=request.domain)
        _link_entities(request, outcome)
        if not writes.begun:
            # Last, once this transaction holds the table: a re-embed that switched the installation
            # to another model while this write waited on the lock is seen here, and refuses it.
            embedding_space_check()
    writes.begun = True
    return outcome


def _apply_one(request, index, decision, stored, created, outcome, now, expiring: bool) -> None:
    key, target = request.keys[index], decision.target
    if decision.op in (Op.ADD, Op.SUPERSEDE, Op.CONTRADICT) and key in stored:
        outcome.deduped.append(stored[key])  # stored meanwhile, or twice in this message
        outcome.holders[index] = stored[key]
        if expiring:
            expiry_renew(memory_id=stored[key], expires_at=request.expires_at)
        return
    if decision.op in (Op.NOOP, Op.LINK_EXISTING):
        outcome.deduped.append(str(target.memory.id))
        outcome.holders[index] = str(target.memory.id)
        if expiring:
            expiry_renew(memory_id=target.memory.id, expires_at=request.expires_at)
        return
    if decision.op == Op.UPDATE:
        _update(request, index, decision, stored, created, outcome, now, expiring)
        if expiring:
            expiry_renew(memory_id=outcome.holders[index], expires_at=request.expires_at)
        return
    locked = _lock_current(target.memory.id) if decision.op in (Op.SUPERSEDE, Op.CONTRADICT) else None
    memory = _create(request, index, now)
    created[index] = memory
    stored[key] = str(memory.id)
    outcome.memory_ids.append(str(memory.id))
    outcome.holders[index] = str(memory.id)
    if decision.op == Op.SUPERSEDE and locked is not None:
        memory_supersede(
            actor=request.author,
            memory=locked,
            successor=memory,
            reason=decision.reason,
            confidence=decision.confidence,
            details={"confidence": decision.confidence},
            run_id=request.run_id,
            now=now,
        )
        outcome.superseded.append(str(locked.id))
    elif decision.op == Op.CONTRADICT and locked is not None:
        _edge(request, memory.id, locked.id, EdgeType.CONTRADICTS, decision)
        outcome.contradicted.append(str(locked.id))
    for update in request.value_updates[index] if request.value_updates else []:
        _succeed(request, index, memory, update, outcome, now)
    outcome.relations.extend(
        (memory.id, related, EdgeType.RELATES_TO, decision.reason, decision.confidence)
        for related in decision.relates_to
    )
    if decision.clarification:
        outcome.needs_clarification.append(
            {
                "memory_id": str(memory.id),
                "candidate_id": str(decision.relates_to[0]),
                "question": decision.clarification,
            }
        )


def _succeed(request: WriteRequest, index: int, successor: Memory, update: ValueUpdate, outcome: Outcome, now) -> None:
    """``successor`` gives a later value than ``update.target``: it supersedes it whole, or in part
    (a SUPERSEDES edge; the target, which says other things too, stays current)."""
    target = _lock_current(update.target.memory.id)
    if target is None:
        return  # superseded or forgotten meanwhile: nothing left to succeed
    if not update.whole:
        edge_add(
            actor=request.author,
            source_id=successor.id,
            target_id=target.id,
            edge_type=EdgeType.SUPERSEDES,
            reason=update.reason,
            confidence=update.confidence,
            run_id=request.run_id,
        )
        outcome.superseded_in_part.append(str(target.id))
        outcome.in_part.setdefault(index, []).append(str(target.id))
        return
    superseded = memory_supersede(
        actor=request.author,
        memory=target,
        successor=successor,
        reason=update.reason,
        confidence=update.confidence,
        details={"confidence": update.confidence},
        run_id=request.run_id,
        now=now,
    )
    if superseded:
        outcome.superseded.append(str(target.id))


def _create(request: WriteRequest, index: int, now: datetime) -> Memory:
    atom = request.atoms[index]
    memory = Memory.written(
        request.domain,
        content=atom.content,
        memory_type=atom.memory_type,
        certainty=atom.certainty,
        importance=atom.importance,
        source=request.source,
        content_key=request.keys[index],
        user_id=request.user_id,
        author=request.author,
        agent_id=request.agent_id,
        run_id=request.run_id,
        metadata=request.metadata,
        context=request.context,
        facets=atom.facets,
        embedding=request.vectors[index],
        created_at=now,
        updated_at=now,
        valid_from=request.valid_from,
        expires_at=request.expires_at,
    )
    memory.save(force_insert=True)
    return memory


def _update(request, index, decision, stored, created, outcome, now, expiring: bool) -> None:
    atom, key = request.atoms[index], request.keys[index]
    target = _lock_current(decision.target.memory.id)
    if target is None:  # superseded or forgotten meanwhile: the new statement stands on its own
        decision = Decision(Op.ADD, None, decision.confidence, "target changed meanwhile", decision.method)
        _apply_one(request, index, decision, stored, created, outcome, now, expiring)  # its provenance too
        return
    stored.pop(target.content_key, None)
    memory_rewrite(
        memory=target,
        content=atom.content,
        content_key=key,
        embedding=request.vectors[index],
        facets=atom.facets,
        action=HistoryAction.UPDATE,
        actor=request.author,
        reason=decision.reason,
        details={"old_content_key": target.content_key, "confidence": decision.confidence},
        run_id=request.run_id,
        importance=max(target.importance, atom.importance),
    )
    stored[key] = str(target.id)
    outcome.updated.append(str(target.id))
    outcome.holders[index] = str(target.id)


def _edge(request: WriteRequest, source: uuid.UUID, target: uuid.UUID, edge_type: str, decision: Decision) -> None:
    edge_add(
        actor=request.author,
        source_id=source,
        target_id=target,
        edge_type=edge_type,
        reason=decision.reason,
        confidence=decision.confidence,
        run_id=request.run_id,
    )


def owner_lock(scope: str, user_id: str) -> None:
    """Serialize the writes for one owner in one write domain, until the transaction ends: every
    door that stores memories takes it before it checks fingerprints (the add, the mem0 import)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"memory-write|{scope}|{user_id}"])


def _lock_current(memory_id: uuid.UUID) -> Memory | None:
    return Memory.objects.current().select_for_update().filter(pk=memory_id).first()


def _stored_keys(request: WriteRequest) -> dict[str, str]:
    rows = (
        Memory.objects.current()
        .filter(rbac_scope=request.domain.scope, user_id=request.user_id, content_key__in=request.keys)
        .values_list("content_key", "id")
    )
    return {key: str(memory_id) for key, memory_id in rows}


def _link_entities(request: WriteRequest, outcome: Outcome) -> None:
    """Upsert entities by (normalized name, type, domain) and link the memories that mention them:
    one statement (``_LINK``); only when another transaction made one of the entities after the
    statement began (it sees neither the row nor, at conflict, the id) are its mentions made again."""
    touched = set(outcome.memory_ids) | set(outcome.updated)
    pairs: list[tuple[str, tuple[str, str]]] = []  # (memory, the entity's normalized name and type)
    names: dict[tuple[str, str], str] = {}
    for i, atom in enumerate(request.atoms):
        if outcome.holders.get(i) in touched:
            for e in atom.entities:
                entity = (e.normalized[:200], e.entity_type[:32])
                pairs.append((outcome.holders[i], entity))
                names[entity] = e.name[:200]
    if not pairs:
        return
    wanted = sorted(names)
    scope = request.domain.scope
    with connection.cursor() as cursor:
        cursor.execute(
            _LINK,
            {
                "scope": scope,
                "names": [names[w] for w in wanted],
                "normalized": [n for n, _ in wanted],
                "types": [t for _, t in wanted],
                "memories": [m for m, _ in pairs],
                "mentioned": [n for _, (n, _) in pairs],
                "mentioned_types": [t for _, (_, t) in pairs],
                "now": timezone.now(),
            },
        )
        (missed,) = cursor.fetchone()
    if missed:
        ids = {
            (n, t): pk
            for pk, n, t in Entity.objects.filter(
                rbac_scope=scope, normalized_name__in=[n for n, _ in wanted]
            ).values_list("id", "normalized_name", "entity_type")
        }
        Mention.objects.bulk_create(
            [Mention(memory_id=m, entity_id=ids[key]) for m, key in pairs if key in ids], ignore_conflicts=True
        )


# The entities made (in name order, as every writer makes them) or found, and the mentions of
# them; answers how many wanted entities it could not see.
_LINK = """
WITH wanted AS (
    SELECT * FROM unnest(%(names)s::text[], %(normalized)s::text[], %(types)s::text[]) AS w(name, n, t)
), made AS (
    INSERT INTO memory_entity (name, normalized_name, entity_type, rbac_scope, created_at)
    SELECT name, n, t, %(scope)s, %(now)s FROM wanted ORDER BY n, t
    ON CONFLICT DO NOTHING
    RETURNING id, normalized_name AS n, entity_type AS t
), known AS (
    SELECT id, n, t FROM made
    UNION ALL
    SELECT e.id, e.normalized_name, e.entity_type FROM memory_entity e
    JOIN wanted w ON e.rbac_scope = %(scope)s AND e.normalized_name = w.n AND e.entity_type = w.t
), linked AS (
    INSERT INTO memory_mention (memory_id, entity_id)
    SELECT DISTINCT p.memory_id, k.id
    FROM unnest(%(memories)s::uuid[], %(mentioned)s::text[], %(mentioned_types)s::text[]) AS p(memory_id, n, t)
    JOIN known k ON k.n = p.n AND k.t = p.t
    ON CONFLICT DO NOTHING
    RETURNING 1
)
SELECT count(*) FROM wanted w WHERE NOT EXISTS (SELECT 1 FROM known k WHERE k.n = w.n AND k.t = w.t)
"""

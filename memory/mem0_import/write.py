"""Stage 3: one mem0 memory written here with its history, in one transaction: all of it or none,
so an interrupted import leaves no memory half-imported.

Verbatim: its text as mem0 holds it, with no extraction and no merge with what is stored. Only
what every memory gets at its door is read from its text (type, importance, certainty, entities,
facets), as for the mem0 door's ``infer=False`` add. Its steps go through the functions every
write path uses: each UPDATE is a revision (``memory_rewrite``: the old text kept in history, at
the update's time), the DELETE a forget (``memories_hide``: the memory kept with its history, out
of every read, restorable by an admin).

One current memory per owner and text holds in a write domain, and mem0 may hold a text twice: a
memory whose text is, at some step, one its owner already holds here is kept superseded by that
one from then on (a history row and a SUPERSEDES edge say so), not stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from memory.embedding_space import embedding_space_check
from memory.ingest.apply import owner_lock
from memory.ingest.atoms import Atom, content_key
from memory.ingest.bulk import entities_link
from memory.ingest.extract import Conversation, extract
from memory.lifecycle import memories_hide
from memory.mem0_import.plan import Planned, Step
from memory.models import EdgeType, HistoryAction, Memory, MemoryHistory, MemorySource
from memory.providers.llm import CallBudget, NoLLM
from memory.revisions import edge_add, memory_rewrite
from rbac.actors import recorded_user
from rbac.policy import WriteDomain, provenance_record

UPDATED = "updated in mem0"
DELETED = "deleted in mem0"
REPEATED = "says what a memory of the same owner already says (imported from mem0)"


@dataclass
class Written:
    revisions: int = 0
    forgotten: bool = False
    repeat: bool = False  # kept superseded by a memory saying the same


def memory_import(*, planned: Planned, vector: np.ndarray, domain: WriteDomain, author: User) -> Written:
    """Write ``planned`` in ``domain``, authored by ``author``. ``vector``: its last text's (the
    texts it held on the way are never searched, so each step stores that one)."""
    first = planned.steps[0]
    atom = _read(first.text, planned)
    written = Written()
    with transaction.atomic():
        owner_lock(domain.scope, planned.owner)
        memory = _new(planned, atom, vector, domain, author)
        holder = _holder(memory, memory.content_key)
        memory.valid_to = first.at if holder else None
        memory.save(force_insert=True)
        provenance_record(memory_ids=[memory.id], domain=domain)
        if holder:
            _repeat_recorded(memory, holder, first, author)
            written.repeat = True
        for step in planned.steps[1:]:
            _step(memory, step, planned, vector, author, written)
        if not planned.deleted and planned.updated_at and planned.updated_at > memory.updated_at:
            memory.updated_at = planned.updated_at  # a change the history does not hold (or was not read)
            memory.save(update_fields=["updated_at"])
        entities_link([memory])
        embedding_space_check()  # after the writes, as every add's: a re-embed's switch it waited on is seen
    return written


def _new(planned: Planned, atom: Atom, vector: np.ndarray, domain: WriteDomain, author: User) -> Memory:
    """The memory as mem0 added it, not saved yet."""
    first = planned.steps[0]
    return Memory.written(
        domain,
        id=planned.memory_id,
        content=first.text,
        memory_type=atom.memory_type,
        importance=atom.importance,
        certainty=atom.certainty,
        source=MemorySource.AGENT,
        content_key=content_key(scope=domain.scope, memory_type=atom.memory_type, content=first.text),
        user_id=planned.owner,
        author=author,
        agent_id=planned.agent_id,
        metadata=planned.metadata,
        facets=atom.facets,
        embedding=vector,
        created_at=first.at,
        updated_at=first.at,
        valid_from=first.at,
        expires_at=planned.expires_at,
    )


def _step(memory: Memory, step: Step, planned: Planned, vector: np.ndarray, author: User, written: Written) -> None:
    if step.event == "DELETE":
        details = {"mem0_event": step.event_id} if step.event_id else {}
        memories_hide([memory], reason=DELETED, details=details, now=step.at, actor=author)
        written.forgotten = True
        return
    key = content_key(scope=memory.rbac_scope, memory_type=memory.memory_type, content=step.text)
    holder = _holder(memory, key) if memory.valid_to is None else None
    if holder:
        memory.valid_to = memory.updated_at = step.at
        memory.save(update_fields=["valid_to", "updated_at"])
        _repeat_recorded(memory, holder, step, author)
        written.repeat = True
    memory_rewrite(
        memory=memory,
        content=step.text,
        content_key=key,
        embedding=vector,
        facets=_read(step.text, planned).facets,
        action=HistoryAction.UPDATE,
        actor=author,
        reason=UPDATED,
        details={"mem0_event": step.event_id} if step.event_id else None,
        now=step.at,
    )
    written.revisions += 1


def _read(text: str, planned: Planned) -> Atom:
    """What the door reads from a verbatim text (no LLM is asked), said by mem0's speaker if any."""
    extraction = extract(
        message=text,
        subject=planned.owner,
        conversation=Conversation(),
        now=timezone.now(),
        verbatim=True,
        max_atoms=1,
        llm=NoLLM(),
        budget=CallBudget(0),
    )
    atom = extraction.atoms[0]
    atom.speaker = planned.speaker or atom.speaker
    return atom


def _holder(memory: Memory, key: str) -> Memory | None:
    """The other current memory of the owner holding ``key`` (as the fingerprint's unique index reads it)."""
    return (
        Memory.objects.filter(
            rbac_scope=memory.rbac_scope,
            user_id=memory.user_id,
            content_key=key,
            deleted_at__isnull=True,
            valid_to__isnull=True,
        )
        .exclude(pk=memory.pk)
        .first()
    )


def _repeat_recorded(memory: Memory, holder: Memory, step: Step, author: User) -> None:
    """``memory`` (no longer current) is superseded by ``holder``, which says the same: as a
    SUPERSEDE records it (``memory.revisions.memory_supersede``), at the step's time."""
    MemoryHistory.objects.create(
        memory=memory,
        action=HistoryAction.SUPERSEDE,
        old_content=memory.content,
        new_content=holder.content,
        details={"superseded_by": str(holder.id), **({"mem0_event": step.event_id} if step.event_id else {})},
        actor=recorded_user(author),
        reason=REPEATED,
        created_at=step.at,
    )
    edge_add(actor=author, source_id=holder.id, target_id=memory.id, edge_type=EdgeType.SUPERSEDES, reason=REPEATED)

"""Stage 6, on the worker after commit: concepts (INSTANCE_OF), categories (IN_CATEGORY: by
rules, or by the LLM when one is configured), reasoning edges between the atoms of a message
(BECAUSE / IMPLIES), the raw source of a message no one memory says (PART_OF), and entity vectors
for alias matching. Idempotent: running it twice adds nothing. A process still configured with the old
model after ``manage.py reembed`` switched the installation stores no vector here: it is refused
(``embedding_space_check``) before embedding and, as the add's own write, once it holds the table."""

from __future__ import annotations

import json
import re
import uuid

from django.conf import settings
from django.db import transaction

from memory.categories.services import memories_file
from memory.embedding_space import embedding_space_check
from memory.ingest.atoms import content_key
from memory.ingest.english.topics import topic_words
from memory.models import (
    Concept,
    Edge,
    EdgeType,
    Entity,
    IngestRun,
    InstanceOf,
    Memory,
    MemorySource,
    MemoryType,
)
from memory.providers import get_embedder, get_llm
from rbac.models import Federation, Workspace
from rbac.policy import WriteDomain, provenance_record

_TYPE_CONCEPTS = {
    "fact": "fact",
    "preference": "preference",
    "goal": "goal",
    "decision": "decision",
    "skill": "skill",
    "opinion": "opinion",
    "event": "experience",
    "procedure": "procedure",
    "observation": "observation",
    "conclusion": "conclusion",
    "health": "health",
}
_ACHIEVEMENT = re.compile(r"\b(?:won|achieved|completed|graduated|promoted|finished|launched|shipped|passed)\b", re.I)
_ACTION = re.compile(r"\b(?:did|went|bought|started|moved|met|visited|built|wrote|sent|booked|decided)\b", re.I)


def enrich_run(*, run_id: uuid.UUID) -> None:
    enrich_runs(run_ids=[run_id])


def enrich_runs(*, run_ids: list[uuid.UUID]) -> None:
    """The runs of one add, or of one add_conversation's messages: their memories enriched
    together (concepts, categories and entity vectors in one pass each), each run's edges and
    raw source in its order."""
    found = IngestRun.objects.filter(pk__in=run_ids, status=IngestRun.Status.SUCCEEDED).in_bulk()
    runs = [found[run_id] for run_id in run_ids if run_id in found]
    if not runs:
        return
    touched = [m for run in runs for m in run.result.get("memory_ids", []) + run.result.get("updated", [])]
    memories = list(Memory.objects.filter(id__in=touched))
    with transaction.atomic():
        _map_concepts(memories)
        for run in runs:
            _reasoning_edges(run, run.result)
        contents = _contents(memories, runs)
        owners = {str(m.id) for m in memories if not (m.facets or {}).get("speaker")}
        _raw_sources([run for run in runs if _kept_whole(run, contents, owners)])
    # After the concepts it reads; outside their transaction, as the LLM may take its time.
    memories_file(
        memory_ids=[m for run in runs for m in run.result.get("memory_ids", [])],
        llm=get_llm() if settings.HELIX_CATEGORIES_LLM else None,
        run_id=runs[0].id,
    )
    _embed_entities(memories)


def memories_enrich(*, memory_ids: list[uuid.UUID]) -> None:
    """Memories written without an add's run (an import): their concepts, categories and entity
    vectors, as an add's enrichment gives them. Idempotent, like each of its steps."""
    memories = list(Memory.objects.filter(id__in=memory_ids))
    if not memories:
        return
    with transaction.atomic():
        _map_concepts(memories)
    memories_file(memory_ids=[m.id for m in memories], llm=get_llm() if settings.HELIX_CATEGORIES_LLM else None)
    _embed_entities(memories)


def _map_concepts(memories: list[Memory]) -> None:
    concepts = dict(Concept.objects.values_list("name", "id"))
    rows = []
    for memory in memories:
        names = {_TYPE_CONCEPTS.get(memory.memory_type)}
        if _ACHIEVEMENT.search(memory.content):
            names.add("achievement")
        if _ACTION.search(memory.content):
            names.add("action")
        rows += [InstanceOf(memory=memory, concept_id=concepts[n]) for n in names if n in concepts]
    InstanceOf.objects.bulk_create(rows, ignore_conflicts=True)


def _reasoning_edges(run: IngestRun, result: dict) -> None:
    holders = result.get("holders", {})
    edges = []
    for source, target, edge_type in result.get("links", []):
        a, b = holders.get(str(source)), holders.get(str(target))
        if a and b and a != b:
            edges.append(
                Edge(
                    source_id=a,
                    target_id=b,
                    edge_type=edge_type,
                    confidence=0.7,
                    reason="said together",
                    run_id=run.id,
                    created_by=run.actor,
                )
            )
    Edge.objects.bulk_create(edges, ignore_conflicts=True)


def _kept_whole(run: IngestRun, contents: dict[str, str], owners: set[str]) -> bool:
    """Whether the run's message is also kept whole, as a raw source: a longer message split
    into several memories, or a message of the owner's own (``owners``: the memories no other
    speaker said) its memories leave most of unsaid. What the owner asked is what the work that
    answered it follows (memory.search.replies takes only the owner's turns as asks); another
    speaker's question in a transcript ("Have you visited any other places?") is kept as its
    statements are, as a turn that only asks tells nothing of what a question asks for."""
    if len(run.message) > settings.HELIX_RAW_SOURCE_MIN_CHARS and _split(run.result):
        return True
    new = run.result.get("memory_ids", [])
    held = [contents[m] for m in _held_in(run.result) if m in contents]
    return bool(new) and new[0] in owners and _left_unsaid(run.message, held)


def _held_in(result: dict) -> list[str]:
    """The memories a run's message landed in: new, updated, or held before (a duplicate)."""
    return result.get("memory_ids", []) + result.get("updated", []) + result.get("deduped", [])


def _contents(memories: list[Memory], runs: list[IngestRun]) -> dict[str, str]:
    """What each memory the runs landed in says, by id: ``memories`` and the ones held before."""
    contents = {str(m.id): m.content for m in memories}
    before = {m for run in runs for m in _held_in(run.result)} - contents.keys()
    contents.update((str(i), text) for i, text in Memory.objects.filter(id__in=before).values_list("id", "content"))
    return contents


def _left_unsaid(message: str, held: list[str]) -> bool:
    """Whether the memories made of a message hold fewer than half the words that carry its
    meaning. The rules keep statements, not questions: "How do we stop previews piling up if a PR
    just sits open for weeks? Some of ours do." leaves only "Some of ours do.", and the reply that
    answered the question would otherwise follow a memory that no longer says what was asked."""
    said = topic_words(message)
    kept = set().union(*(topic_words(text) for text in held))
    return 2 * len(said & kept) < len(said)


def _split(result: dict) -> bool:
    """Whether the message landed in more than one memory, at least one of them new: several new
    atoms, or new ones beside ones folded into memories already held. Then no one memory says
    the whole message, and its raw source keeps what its parts meant together ("we did it
    yesterday" beside "a nice way to relax after the road trip", said before of another trip)."""
    new = result.get("memory_ids", [])
    return bool(new) and len(new) + len(result.get("updated", [])) + len(set(result.get("deduped", []))) > 1


def _raw_sources(runs: list[IngestRun]) -> None:
    """Keep each run's whole message as one raw memory its atoms are PART_OF, for tracing back,
    matched as its atoms are: with what was said just before it (memory.ingest.preceding) and by
    who said it. A message said again (in these runs or before) has one raw memory. The new ones
    are embedded in one batch and stored in one insert."""
    if not runs:
        return
    domains = _domains([run.result["domain"] for run in runs])
    keys = [
        (domain.scope, run.user_id, content_key(scope=domain.scope, memory_type=MemoryType.RAW, content=run.message))
        for run, domain in zip(runs, domains, strict=True)
    ]
    held = {
        (scope, user_id, key): memory_id
        for memory_id, scope, user_id, key in Memory.objects.current()
        .filter(content_key__in=[key for _, _, key in keys])
        .values_list("id", "rbac_scope", "user_id", "content_key")
    }
    new: dict[tuple[str, str, str], tuple[IngestRun, WriteDomain]] = {}  # each raw memory to make, by its first run
    for run, domain, where in zip(runs, domains, keys, strict=True):
        if where not in held:
            new.setdefault(where, (run, domain))
    if new:
        firsts = Memory.objects.in_bulk([run.result["memory_ids"][0] for run, _ in new.values()])
        embedding_space_check()
        vectors = get_embedder().embed([run.message for run, _ in new.values()], purpose="raw_source")
        made = {
            where: _raw(run, domain, where[2], firsts[uuid.UUID(str(run.result["memory_ids"][0]))], vector)
            for (where, (run, domain)), vector in zip(new.items(), vectors, strict=True)
        }
        Memory.objects.bulk_create(made.values())
        embedding_space_check()  # after the insert, as the add's own write: a switch it waited on is seen
        for where, (_, domain) in new.items():
            provenance_record(memory_ids=[made[where].id], domain=domain)
        held.update({where: raw.id for where, raw in made.items()})
    parts = [
        Edge(source_id=m, target_id=held[where], edge_type=EdgeType.PART_OF, run_id=run.id, created_by=run.actor)
        for run, where in zip(runs, keys, strict=True)
        for m in run.result["memory_ids"]
    ]
    Edge.objects.bulk_create(parts, ignore_conflicts=True)


def _raw(run: IngestRun, domain: WriteDomain, key: str, first: Memory, vector) -> Memory:
    """The raw memory of ``run``'s message, told as its first atom (``first``) was."""
    return Memory.written(
        domain,
        content=run.message,
        memory_type=MemoryType.RAW,
        source=MemorySource.RAW_INPUT,
        content_key=key,
        user_id=run.user_id,
        author_id=first.author_id,
        agent_id=first.agent_id,
        run_id=run.id,
        metadata=first.metadata,
        context=first.context,
        facets=_said_by(first),
        embedding=vector,
        valid_from=first.valid_from,
        importance=0.3,
        immutable=True,
    )


def _said_by(atom: Memory) -> dict:
    """A raw line of a transcript is said by whom its atoms are: the search prefers it, as them,
    when the question names that person."""
    speaker = (atom.facets or {}).get("speaker")
    return {"speaker": speaker} if speaker else {}


def _domains(saved: list[dict]) -> list[WriteDomain]:
    """The write domain each run wrote in, each distinct one read once."""
    read: dict[str, WriteDomain] = {}
    for each in saved:
        key = json.dumps(each, sort_keys=True)
        if key not in read:
            read[key] = _domain(each)
    return [read[json.dumps(each, sort_keys=True)] for each in saved]


def _domain(saved: dict) -> WriteDomain:
    federation_id = saved.get("federation_id")
    federation = Federation.objects.filter(pk=federation_id).first() if federation_id else None
    return WriteDomain(
        workspace=Workspace.objects.get(pk=saved["workspace_id"]),
        scope=saved["scope"],
        federation=federation,
        visible_workspace_ids=tuple(saved["visible_workspace_ids"]),
    )


ENTITIES_PER_BATCH = 200


def _embed_entities(memories: list[Memory]) -> None:
    """The vectors of the entities the memories mention that have none yet, a batch at a time."""
    for start in range(0, len(memories), ENTITIES_PER_BATCH // 4):
        _embed_some_entities(memories[start : start + ENTITIES_PER_BATCH // 4])


def _embed_some_entities(memories: list[Memory]) -> None:
    """Embedded outside any transaction, then stored in one that locks the rows in id order and skips
    those another worker holds: two workers enriching one owner's writes side by side store each
    entity's vector once and never wait on each other (two waiting in opposite orders would
    deadlock, and the task that lost would wait for its retry)."""
    unembedded = Entity.objects.filter(mentions__memory__in=memories, embedding__isnull=True).distinct()
    entities = list(unembedded.order_by("id")[:ENTITIES_PER_BATCH])
    if not entities:
        return
    embedding_space_check()  # a process left on the old model after a re-embed embeds nothing
    embedded = get_embedder().embed([e.name for e in entities], purpose="entities")
    vectors = {entity.id: vector for entity, vector in zip(entities, embedded, strict=True)}
    with transaction.atomic():
        free = Entity.objects.filter(id__in=list(vectors), embedding__isnull=True).order_by("id")
        locked = list(free.select_for_update(skip_locked=True))
        for entity in locked:
            entity.embedding = vectors[entity.id]
        Entity.objects.bulk_update(locked, ["embedding"])
        # Last, once this transaction holds the table: a re-embed that switched the installation
        # to another model while this write waited on its lock is seen here, and refuses it.
        embedding_space_check()

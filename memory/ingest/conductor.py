"""The ingest's conductor (the stages beside it never import it: ``make lint``): the add pipeline
run synchronously for one message, or for a conversation's messages in order: extract → embed →
candidates → decide → apply, with a run log per message; enrichment is queued for the worker
after commit. A conversation's atoms are embedded in batches a slice of messages long, the next
slice while one is written; each message is decided and written on its own, against what the
messages before it wrote.

Its input has passed the door (the tool's input serializer, or a writer inside the server):
bounds are not checked again here. A provider failure writes nothing but the failed run; a
repeated identical call creates nothing new.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from helixsite.db import conflicts
from helixsite.errors import ApplicationError
from helixsite.task_broker import task_enqueue_after_commit
from memory.embedding_space import embedding_space_check
from memory.ingest.apply import Outcome, OwnerWrites, WriteRequest, apply
from memory.ingest.atoms import Atom, Extraction, content_key
from memory.ingest.candidates import Candidate, load_candidates
from memory.ingest.decide import Decision, decide
from memory.ingest.extract import extract
from memory.ingest.preceding import said_before
from memory.ingest.request import AddRequest
from memory.ingest.runlog import RunLog
from memory.ingest.updates import ValueUpdate, change_sentences, value_updates
from memory.models import IngestRun, MemorySource
from memory.providers import ProviderError, get_embedder, get_llm
from memory.providers.llm import CallBudget
from rbac.policy import WriteDomain

logger = logging.getLogger(__name__)

# The most atoms the local model embeds in one batch while the messages before them are written: a
# batch this long already has the model's gain from batching (a 40-token text costs 9.0 ms in a
# batch of twenty against 10.0 ms alone). The first slice is one message (``_slices``).
SLICE_ATOMS = 8
# The model's thread for the writes of this process: it touches no database, and ONNX Runtime runs
# without the interpreter lock, so it embeds on one core while the writes use the other. One thread,
# as for search (HELIX_EMBEDDING_THREADS: the model never takes every core from the database).
_slice_embedder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-embedding")


def ingest(*, actor: User, request: AddRequest, domain: WriteDomain) -> dict[str, Any]:
    """Run the stages for one message in ``domain`` and return add_memory's answer."""
    answers, failure = ingest_many(actor=actor, requests=[request], domain=domain)
    if failure is not None:
        raise failure.error
    return answers[0]


@dataclass(frozen=True)
class Failure:
    """The message of a call that failed (``index``) and why: the ones before it stand."""

    index: int
    error: Exception


@dataclass
class _Message:
    request: AddRequest
    run: RunLog
    budget: CallBudget
    extraction: Extraction
    now: datetime
    sentences: list[list[str]]  # each atom's sentences that say a change, embedded with it

    @property
    def texts(self) -> list[str]:
        """What is embedded for the message: its atoms, then their sentences."""
        return [atom.content for atom in self.extraction.atoms] + [s for found in self.sentences for s in found]


@dataclass(frozen=True)
class _Vectors:
    atoms: np.ndarray
    sentences: list[np.ndarray]  # an array an atom, a row a sentence


def ingest_many(
    *, actor: User, requests: list[AddRequest], domain: WriteDomain
) -> tuple[list[dict[str, Any]], Failure | None]:
    """Messages in order, each its own run and its own write, decided against what the messages
    before it wrote: as many add_memory calls would, but with their runs started in one statement
    and ended in two, the atoms embedded in batches while the messages before them are written
    (``_embedded``), the writes committed together (each message in its own savepoint, under the
    owner's write lock the first took) and one enrichment task for all. Up to the first failure:
    the answers of the messages before it (they stand), and the failure; the failed message wrote
    nothing but its failed run, the runs of the ones after it end ``not_run``. An embedding that
    fails before the first write fails every run. A message PostgreSQL ends in a deadlock (another
    call into the workspace waits on what the messages before it wrote, and it on what the other's
    wrote: helixsite.db.conflicts) is written again at once: the ones before it are committed,
    which lets the other go on, and it is decided again in a transaction of its own; when it gives
    way at every attempt, it fails as ``write_conflict`` (409). Inside a caller's transaction (a
    buffered write) the deadlock is raised, for the caller to run its transaction again."""
    runs = RunLog.start_many([_run_fields(actor, request, domain) for request in requests])
    messages: list[_Message] = []
    failure = None
    for index, (request, run) in enumerate(zip(requests, runs, strict=True)):
        budget = CallBudget(settings.HELIX_LLM_CALLS_PER_MESSAGE)
        now = timezone.now()
        try:
            extraction = _extract_stage(run, request, budget, now=now)
        except Exception as exc:
            failure = Failure(index, _failed(run, budget, exc))
            _not_run(runs[index + 1 :], index)
            # Kept now, whatever becomes of the transaction that writes the messages before it.
            RunLog.save_many(runs[index:])
            break
        messages.append(_Message(request, run, budget, extraction, now, _change_sentences(extraction)))
    answers: list[dict[str, Any]] = []
    arrived: list[_Vectors] = []  # each message's vectors as the writes come to it, kept for one written again
    with closing(_embedded(messages)) as embedded:
        start = 0
        # Inside a caller's transaction nothing commits here, so nothing written would be let go: a
        # deadlock is raised to the caller, whose transaction is undone whole and may run again.
        nested = transaction.get_connection().in_atomic_block
        for attempt in range(1, conflicts.ATTEMPTS + 1):
            with transaction.atomic():
                gave_way, failed = _write_from(
                    start,
                    messages,
                    embedded,
                    arrived,
                    answers,
                    domain,
                    actor,
                    nested=nested,
                    last=attempt == conflicts.ATTEMPTS,
                )
            failure = failed or failure  # a message that failed to write comes before one that failed to extract
            if gave_way is None:
                break
            # The messages before it are committed and its locks let go: the one that gave way is
            # decided and written again in a transaction of its own, against what is stored now.
            logger.warning("Message %d of a call gave way in a deadlock; writing it again (%d).", gave_way, attempt)
            start = gave_way
            time.sleep(conflicts.PAUSE_SECONDS * attempt)
    return answers, failure


def _write_from(
    start: int,
    messages: list[_Message],
    embedded: Iterator[_Vectors],
    arrived: list[_Vectors],
    answers: list[dict[str, Any]],
    domain: WriteDomain,
    actor: User,
    *,
    nested: bool,
    last: bool,
) -> tuple[int | None, Failure | None]:
    """Write ``messages`` from ``start`` on in the caller's transaction, each in a savepoint, their
    answers added to ``answers``. Stops at the first failure, or at a message that gave way in a
    deadlock (unless ``last``: then that is its failure) so that the caller commits the ones before
    it, whose locks the other transaction waits for, and writes it again: its index. ``nested``
    (that transaction is inside another): the deadlock is raised."""
    writes = OwnerWrites()
    enrich: list[str] = []
    failure = gave_way = None
    for index in range(start, len(messages)):
        message = messages[index]
        if index == len(arrived):
            try:
                arrived.append(next(embedded))
            except Exception as exc:
                if index == 0:  # nothing written: every message's run fails with it
                    errors = [_failed(m.run, m.budget, exc) for m in messages]
                    RunLog.save_many([m.run for m in messages])
                    return None, Failure(0, errors[0])
                failure = Failure(index, _failed(message.run, message.budget, exc))
                _not_run([later.run for later in messages[index + 1 :]], index)
                break
        try:
            with transaction.atomic():
                result = _write_stages(message, arrived[index], domain, actor, writes)
        except Exception as exc:
            if conflicts.gave_way(exc) and nested:
                raise
            if conflicts.gave_way(exc) and not last:
                gave_way = index
                break
            failure = Failure(index, _failed(message.run, message.budget, exc))
            _not_run([later.run for later in messages[index + 1 :]], index)
            break
        enrichment_due = bool(result["memory_ids"] or result["updated"])
        message.run.end(result=result.pop("_log"), llm_calls=message.budget.used, enrichment_due=enrichment_due)
        if enrichment_due:
            enrich.append(str(message.run.id))
        answers.append(result)
    RunLog.save_many([message.run for message in messages[start:gave_way]])
    if enrich:
        # Not queued while the task queue (Redis) is away: the writes stand, unenriched (one WARNING
        # line), marked due, and enrichments_requeue queues them once the queue is back.
        _enqueue_enrichment(enrich)
    return gave_way, failure


def _not_run(runs: list[RunLog], failed: int) -> None:
    for run in runs:
        run.end(error_code="not_run", error=f"message {failed} of the same call failed first")


def _run_fields(actor: User, request: AddRequest, domain: WriteDomain) -> dict[str, Any]:
    return {
        "actor": actor,
        "user_id": request.user_id,
        "rbac_scope": domain.scope,
        "workspace": domain.workspace,
        "message": request.message,
        "message_hash": hashlib.sha256(request.message.encode()).hexdigest(),
        "occurred_at": request.occurred_at,
    }


def _failed(run: RunLog, budget: CallBudget, exc: Exception) -> Exception:
    """End ``run`` as failed by ``exc``; what the caller is to raise (a provider down is a 503, a
    deadlock every attempt gave way in a 409)."""
    if isinstance(exc, ProviderError):
        run.end(error_code=exc.code, error=str(exc), llm_calls=budget.used)
        return ApplicationError(str(exc), code=exc.code, status=503)
    if conflicts.gave_way(exc):  # at every attempt: concurrent writes, not this message, are the cause
        exc = ApplicationError(
            f"a concurrent write held what this message needed {conflicts.ATTEMPTS} times over; nothing of it "
            "was written: send it again",
            code="write_conflict",
            status=409,
        )
    if isinstance(exc, ApplicationError):
        run.end(error_code=exc.code, error=exc.message, llm_calls=budget.used)
    else:
        run.end(error_code="internal_error", error=f"{exc.__class__.__name__}: {exc}", llm_calls=budget.used)
    return exc


def enrichments_requeue(*, before: datetime, limit: int) -> int:
    """Queue again the enrichment of up to ``limit`` runs marked due since before ``before``, the
    longest waiting first: their task never reached the queue, or was lost with it. Each is marked
    anew, so the next sweep waits as long again. Enrichment is idempotent: a task that did reach
    the queue and runs as well adds nothing. How many were queued."""
    with transaction.atomic():
        due = IngestRun.objects.filter(enrichment_due_at__lt=before).order_by("enrichment_due_at")
        ids = list(due.select_for_update(skip_locked=True).values_list("id", flat=True)[:limit])
        IngestRun.objects.filter(pk__in=ids).update(enrichment_due_at=timezone.now())
    for run_id in ids:
        _enqueue_enrichment([str(run_id)])
    return len(ids)


def _enqueue_enrichment(run_ids: list[str]) -> None:
    """One task enriches the runs of a call, in order."""
    name = f"enrich {run_ids[0]}" + (f" and {len(run_ids) - 1} more" if len(run_ids) > 1 else "")
    task_enqueue_after_commit("memory.tasks.memory_enrich", *run_ids, task_name=name)


def _change_sentences(extraction: Extraction) -> list[list[str]]:
    if settings.HELIX_INGEST_UPDATE_SIMILARITY >= 1:
        return [[] for _ in extraction.atoms]
    return [change_sentences(atom) for atom in extraction.atoms]


def _embedded(messages: list[_Message]) -> Generator[_Vectors, None, None]:
    """Each message's vectors (its atoms' and their change sentences'), in order, as the writes come
    to them. The local model embeds a slice of messages (``SLICE_ATOMS`` atoms) at a time on its own
    thread, one slice ahead: while a slice is written, the next is embedded. A call of one slice (an
    add_memory) is embedded here, and so is every message for a remote provider, in one call: it
    records each call in the ledger, in the caller's transaction. Each run logs its slice's
    embedding. Raises at the first message of a slice that could not be embedded."""
    if not messages:
        return
    embedding_space_check()
    slices = _slices(messages) if get_embedder().provider == "local" else [messages]
    if len(slices) == 1:  # nothing to embed beside a write: here, without a thread's handoff
        yield from _logged(messages, _slice_embedding(messages))
        return
    ahead = _slice_embedder.submit(_slice_embedding, slices[0])
    try:
        for at, part in enumerate(slices):
            current = ahead
            if at + 1 < len(slices):
                ahead = _slice_embedder.submit(_slice_embedding, slices[at + 1])
            yield from _logged(part, current.result())
    finally:
        ahead.cancel()  # the call stopped before the slice ahead: not embedded unless already begun


def _slices(messages: list[_Message]) -> list[list[_Message]]:
    """Consecutive messages, the first slice of one atom at least, each next one twice as long up
    to ``SLICE_ATOMS`` (the last may hold fewer): the first write waits for one message's embedding,
    not a slice's, and the model, faster than the writes, keeps a slice ahead of them."""
    found: list[list[_Message]] = [[]]
    atoms, size = 0, 1
    for message in messages:
        if atoms >= size:
            found.append([])
            atoms, size = 0, min(2 * size, SLICE_ATOMS)
        found[-1].append(message)
        atoms += len(message.extraction.atoms)
    return found


@dataclass(frozen=True)
class _SliceEmbedding:
    vectors: np.ndarray | None
    seconds: float
    error: Exception | None = None


def _slice_embedding(messages: list[_Message]) -> _SliceEmbedding:
    """The atoms of ``messages`` in one call of the embedder; a failure is returned, not raised, for
    the writing thread to log (the run logs are that thread's alone)."""
    texts = [text for m in messages for text in m.texts]
    started = time.perf_counter()
    try:
        vectors = get_embedder().embed(texts, purpose="ingest")
    except Exception as exc:
        return _SliceEmbedding(None, time.perf_counter() - started, exc)
    return _SliceEmbedding(vectors, time.perf_counter() - started)


def _logged(messages: list[_Message], embedding: _SliceEmbedding) -> Iterator[_Vectors]:
    """Each message's part of its slice's vectors; every run of the slice logs the slice's
    embedding once it is taken, written or not."""
    batch = sum(len(m.texts) for m in messages)
    error = "" if embedding.error is None else f"{embedding.error.__class__.__name__}: {embedding.error}"
    for message in messages:
        output = {} if error else {"count": len(message.extraction.atoms), "batch": batch}
        if not error and any(message.sentences):
            output["sentences"] = sum(len(found) for found in message.sentences)
        message.run.record("embed", seconds=embedding.seconds, output=output, error=error)
    if embedding.error is not None:
        raise embedding.error
    assert embedding.vectors is not None
    start = 0
    for message in messages:
        count = len(message.extraction.atoms)
        atoms = embedding.vectors[start : start + count]
        start += count
        sentences = []
        for found in message.sentences:
            sentences.append(embedding.vectors[start : start + len(found)])
            start += len(found)
        yield _Vectors(atoms, sentences)


def _write_stages(
    message: _Message, embedded: _Vectors, domain: WriteDomain, actor: User, writes: OwnerWrites
) -> dict[str, Any]:
    run, request, budget, now = message.run, message.request, message.budget, message.now
    atoms, vectors = message.extraction.atoms, embedded.atoms
    keys = [content_key(scope=domain.scope, memory_type=a.memory_type, content=a.content) for a in atoms]
    with run.stage("candidates") as log:
        candidates, by_sentence = load_candidates(
            atoms=atoms,
            vectors=vectors,
            keys=keys,
            scope=domain.scope,
            user_id=request.user_id,
            readable=domain.visible_in,
            sentences=embedded.sentences,
        )
        log["candidates"] = [
            [{"id": str(c.memory.id), "cosine": c.cosine, "via": sorted(c.via)} for c in found] for found in candidates
        ]
        # Each change sentence of each atom, with the memories nearest to it.
        nearest = [
            list(zip(said, found, strict=True)) for said, found in zip(message.sentences, by_sentence, strict=True)
        ]
        if any(nearest):
            log["nearest_to_sentences"] = [
                [[{"id": str(c.memory.id), "cosine": c.cosine} for c in found] for _, found in near] for near in nearest
            ]
    with run.stage("decide") as log:
        decisions = decide(atoms=atoms, candidates=candidates, keys=keys, llm=get_llm(), budget=budget, run_id=run.id)
        log["decisions"] = [d.as_log() for d in decisions]
    decisions, beside = _values_stage(run, atoms, candidates, nearest, decisions, request, now)
    with run.stage("apply") as log:
        context = said_before(
            conversation=request.conversation,
            user_id=request.user_id,
            scope=domain.scope,
            started_at=run.run.started_at,
            occurred_at=request.occurred_at,
        )
        outcome = apply(
            WriteRequest(
                atoms=atoms,
                decisions=decisions,
                vectors=vectors,
                keys=keys,
                domain=domain,
                author=actor,
                user_id=request.user_id,
                agent_id=request.agent_id,
                metadata=request.metadata,
                context=context,
                valid_from=request.occurred_at or now,
                expires_at=request.expires_at,
                source=request.source or (MemorySource.EXTRACTION if request.extract else MemorySource.RAW_INPUT),
                run_id=run.id,
                value_updates=beside,
                key_holders={
                    str(c.memory.content_key): str(c.memory.id) for f in candidates for c in f if "key" in c.via
                },
            ),
            writes,
        )
        log["holders"] = outcome.holders
    return _answer(run, message.extraction.dropped, atoms, decisions, outcome, domain)


def _values_stage(
    run: RunLog,
    atoms: list[Atom],
    candidates: list[list[Candidate]],
    nearest: list[list[tuple[str, list[Candidate]]]],
    proposed: list[Decision],
    request: AddRequest,
    now: datetime,
) -> tuple[list[Decision], list[list[ValueUpdate]]]:
    with run.stage("values") as log:
        decisions, beside = value_updates(
            atoms=atoms,
            candidates=candidates,
            nearest=nearest,
            decisions=proposed,
            owner=request.user_id,
            said_at=request.occurred_at or now,
        )
        log["revised"] = {i: d.as_log() for i, d in enumerate(decisions) if d is not proposed[i]}
        log["beside"] = [
            [{"target": str(u.target.memory.id), "whole": u.whole, "reason": u.reason} for u in found]
            for found in beside
        ]
    return decisions, beside


def _extract_stage(run: RunLog, request: AddRequest, budget: CallBudget, *, now: datetime) -> Extraction:
    with run.stage("extract") as log:
        extraction = extract(
            message=request.message,
            subject=request.user_id,
            conversation=request.conversation,
            now=request.occurred_at or now,
            verbatim=not request.extract,
            max_atoms=settings.HELIX_MAX_FACTS_PER_CALL,
            llm=get_llm(),
            budget=budget,
            run_id=run.id,
        )
        if request.memory_type:
            for atom in extraction.atoms:
                atom.memory_type = request.memory_type
        log.update(
            method=extraction.method,
            atoms=[a.content for a in extraction.atoms],
            dropped=extraction.dropped,
            problem=extraction.problem,
        )
    return extraction


def _answer(
    run: RunLog, dropped: list[str], atoms: list[Atom], decisions: list[Decision], outcome: Outcome, domain: WriteDomain
) -> dict[str, Any]:
    """add_memory's answer, and (under ``_log``) what the run log keeps of it."""
    answer: dict[str, Any] = {
        "ok": True,
        "memory_ids": outcome.memory_ids,
        "updated": outcome.updated,
        "deduped": list(dict.fromkeys(outcome.deduped)),
        "skipped": [{"text": text, "reason": "not a statement to remember"} for text in dropped],
        "superseded": outcome.superseded,
        "superseded_in_part": outcome.superseded_in_part,
        "contradicted": outcome.contradicted,
        "needs_clarification": outcome.needs_clarification,
        "decisions": [_decision(i, atom, d, outcome) for i, (atom, d) in enumerate(zip(atoms, decisions, strict=True))],
        "run_id": str(run.id),
    }
    logged = ("memory_ids", "updated", "deduped", "superseded", "superseded_in_part", "contradicted")
    answer["_log"] = {
        **{key: answer[key] for key in logged},
        "holders": {str(k): v for k, v in outcome.holders.items()},
        "links": [[i, j, kind] for i, atom in enumerate(atoms) for j, kind in atom.links],
        "domain": {
            "scope": domain.scope,
            "workspace_id": domain.workspace.id,
            "federation_id": domain.federation.id if domain.federation else None,
            "visible_workspace_ids": list(domain.visible_workspace_ids),
        },
    }
    return answer


def _decision(index: int, atom: Atom, decision: Decision, outcome: Outcome) -> dict[str, Any]:
    return {
        "atom": atom.content,
        "type": atom.memory_type,
        "op": decision.op.value,
        "memory_id": outcome.holders.get(index),
        "target_id": str(decision.target.memory.id) if decision.target else None,
        "confidence": decision.confidence,
        "reason": decision.reason,
        "superseded_in_part": outcome.in_part.get(index, []),
    }

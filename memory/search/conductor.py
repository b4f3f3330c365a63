"""The search's conductor: ``search_memory`` and its variants (concept search, reasoning chains,
connect, the memory graph, ``build_context``) driven through the stages of ``memory.search``, in
order: params → seeds → expand → score → project (→ reinforce). The stages never import it
(``make lint``).

Only live memories the actor can see are seeds, are walked through, or come back."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import sys
import threading
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

import numpy as np
from django.conf import settings

from helixsite.errors import InvalidInput, NotFound
from memory.categories.counts import category_size
from memory.categories.selectors import category_path_parse
from memory.documents.chunks import chunk_place
from memory.documents.recall import with_chunks
from memory.documents.selectors import chunk_vectors
from memory.embedding_space import embedding_space_check
from memory.models import Concept, Memory
from memory.providers import embed_query, get_embedder
from memory.search.attributes import attribute_holding
from memory.search.bm25 import NOTHING, Bm25, holding_once
from memory.search.corpus import MEMORIES
from memory.search.excerpts import excerpt
from memory.search.expand import Reached, Walk, edges_around, links_among
from memory.search.filters import MemoryFilter
from memory.search.graph import Step, neighbourhood, neighbours, reasoning_chains, shortest_path
from memory.search.kinds import asked_kind, kind_holders
from memory.search.params import SearchRequest, search_request
from memory.search.project import as_result, project
from memory.search.reinforce import reinforce as reinforce_recalled
from memory.search.replies import replies_to
from memory.search.restatements import restatements
from memory.search.rows import recalled, recalled_with
from memory.search.scope import Scope
from memory.search.score import Hit, score
from memory.search.seeds import bm25_seeds, gathers, rare_tokens, vector_seeds
from memory.search.speakers import speakers_guess, speakers_learn, speakers_named, without_speakers
from memory.search.standing import standing_for
from memory.selectors import memory_get_for_actor, memory_list
from rbac.actors import Actor


def _yield_to_requests() -> None:
    """The model's thread runs at a lower priority than the request's (Linux, where a thread has a
    priority of its own): the request's thread and the database backend it wakes are the search's
    critical path, and the kernel would otherwise let a backend woken while the model runs wait
    for it for a scheduler tick. Measured in process on LoCoMo (docs/benchmarks.md): the first
    statement after the model starts p90 3.8 → 0.17 ms, a search p50 16.5 → 13.4 ms."""
    if sys.platform == "linux" and settings.HELIX_EMBEDDING_QUERY_NICENESS > 0:
        with contextlib.suppress(OSError):
            thread = threading.get_native_id()
            niceness = os.getpriority(os.PRIO_PROCESS, thread)  # its creator's, inherited
            os.setpriority(os.PRIO_PROCESS, thread, min(19, niceness + settings.HELIX_EMBEDDING_QUERY_NICENESS))


_query_embedder = ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="query-embedding", initializer=_yield_to_requests
)
_embeddings_pending = 0  # submitted to the model's thread and not finished
_pending_lock = threading.Lock()
# A search's query embedding started before its parameters were checked (memory_search_prefetch),
# with the text it embeds: the search takes it if it would embed the same text.
_prefetched: ContextVar[tuple[str, Future] | None] = ContextVar("memory_search_prefetched", default=None)


def _embed_submit(query: str) -> Future:
    global _embeddings_pending
    with _pending_lock:
        _embeddings_pending += 1
    future = _query_embedder.submit(embed_query, query)
    future.add_done_callback(_embedding_done)
    return future


def _embedding_done(_: Future) -> None:
    global _embeddings_pending
    with _pending_lock:
        _embeddings_pending -= 1


def memory_search_prefetch(*, actor: Actor, raw: Mapping[str, Any]) -> Callable[[], None] | None:
    """Start embedding the query of a search from its arguments as the caller sent them, once
    the caller is known and allowed: the call's budget is spent and its arguments are checked
    meanwhile. ``memory_search`` takes the embedding if it embeds the same text; the call must
    call what this returns when it ends, whether or not the search ran. Only with the local
    model, and only while its thread is idle: calls refused later (over budget, bad arguments)
    cost at most the one embedding the model's thread was free for. None if nothing started."""
    query, owner = raw.get("query"), raw.get("user_id")
    if not isinstance(query, str) or not query.strip() or len(query) > settings.HELIX_SEARCH_MAX_QUERY_CHARS:
        return None
    if get_embedder().provider != "local" or _embeddings_pending:
        return None
    personal = raw.get("scope", "personal") == "personal"
    owner = (owner.strip() or None) if personal and isinstance(owner, str) else None
    sent = raw.get("category")
    if sent is not None and not isinstance(sent, str):
        return None  # the tool's own check refuses it, naming the field
    try:
        category = _category(sent)
    except InvalidInput:
        return None
    text = _guessed(_asked_as(actor, owner, category=category), query.strip())
    token = _prefetched.set((text, _embed_submit(text)))
    return lambda: _prefetched.reset(token)


def _asked_as(
    actor: Actor, owner: str | None, *, concept: str | None = None, tags: tuple = (), category: str | None
) -> tuple:
    """Who asks in which scope: the key under which the speakers a search named are remembered."""
    return (actor.pk, owner, concept, tags, category)


def _guessed(asked_as: tuple, query: str) -> str:
    """The query less the names this caller's last search in the same scope found to be speakers."""
    return without_speakers(query, speakers_guess(asked_as, query))


def _embed_early(query: str) -> Future | None:
    """The local model's embedding of ``query``, started now on its thread (or by the prefetch);
    None for a remote provider, whose calls are paid and recorded, so it embeds only the text
    finally matched."""
    prefetched = _prefetched.get()
    if prefetched is not None:
        _prefetched.set(None)
        if prefetched[0] == query:
            return prefetched[1]
    return _embed_submit(query) if get_embedder().provider == "local" else None


def _embed_meanwhile(query: str) -> Future:
    """The local model embeds on a thread of its own (it never touches the database); a remote
    provider records each call in the ledger, in the caller's transaction, so it runs inline."""
    if get_embedder().provider == "local":
        return _embed_submit(query)
    done: Future = Future()
    done.set_result(embed_query(query))
    return done


def memory_search(
    *,
    actor: Actor,
    concept: str | None = None,
    tags: tuple[str, ...] = (),
    category: str | None = None,
    filters: MemoryFilter | None = None,
    reinforce: bool = True,
    include_chunks: bool = False,
    **params,
) -> dict:
    """Hybrid recall: seeds (vector + BM25) → graph expansion → scoring → projection.

    Only live memories the actor can see are seeds, are walked through, or come back; with
    ``category``, only those filed in that category or below it; with ``filters``
    (memory.search.filters), only those it matches, inside every statement, before ranking.
    ``reinforce=False`` reads without counting the results as accessed (FastThink's recall).
    ``include_chunks``: document chunks recalled in the same scope join the ranked list
    (memory.documents.recall); without it, not one query more than memories alone.
    """
    request = search_request(**params)
    category = _category(category)
    if filters is not None and include_chunks:
        # A filter reads a memory's fields; a chunk has none of them, so it could not keep to it.
        raise InvalidInput(
            "filters apply to memories; a filtered search cannot include document chunks.",
            code="filters_with_chunks",
            field="include_chunks",
        )
    owner = request.user_id if request.scope == "personal" else None
    # The model embeds the query on a thread of its own while the database checks the caller's
    # access, finds the speakers the query names and ranks the BM25 seeds: the two use different
    # cores. Which names are speakers is guessed from this caller's last search in this scope;
    # a wrong guess is embedded again.
    asked_as = _asked_as(actor, owner, concept=concept, tags=tags, category=category)
    guessed = _guessed(asked_as, request.query)
    early = _embed_early(guessed)
    embedding_space_check()
    scope = _scope(actor, owner, concept=concept, tags=tags, category=category, filters=filters)
    request = _with_speakers(request, scope)
    speakers_learn(asked_as, request.query, request.speakers)
    if early is not None and guessed == request.matched:
        embedding = early
    else:
        if early is not None:
            early.cancel()  # if it has not started yet
        embedding = _embed_meanwhile(request.matched)
    signals = settings.HELIX_SEARCH_SEEDS
    bm25 = bm25_seeds(scope, request) if signals in ("hybrid", "bm25") else NOTHING
    bm25 = _with_kind(bm25, scope, request) if signals in ("hybrid", "bm25") else bm25
    vector = embedding.result()
    vector_scores = vector_seeds(scope, request, vector) if signals in ("hybrid", "vector") else {}
    bm25_scores = bm25.scores
    # The graph walk starts from the seeds strongest on both signals, each on a 0–1 scale.
    seed_ids = sorted(
        set(vector_scores) | set(bm25_scores), key=lambda i: -(vector_scores.get(i, 0) + bm25.normalized(i, "query"))
    )
    # The memory holding the value an attribute question asks for is a seed whatever it shares
    # with the question's words and meaning; for any other question there is none.
    holding = attribute_holding(scope, request.query, request.window)
    ids = list(dict.fromkeys([*seed_ids, *([holding] if holding else [])]))
    walk = Walk(
        scope, seed_ids[: settings.HELIX_SEARCH_EXPAND_FROM], request.graph_depth, settings.HELIX_SEARCH_EXPAND_MAX
    )
    memories, reached = recalled_with(walk, ids, vector)
    ids = list(dict.fromkeys([*ids, *reached]))
    cosines = {**{memory_id: row.cosine for memory_id, row in memories.items()}, **vector_scores}
    hits = score(
        request=request,
        memories=memories,
        cosines=cosines,
        vector_scores=vector_scores,
        bm25=bm25,
        reached=reached,
        links=_links_for_ppr(ids),
    )
    restated = restatements(request, hits)
    around = edges_around(
        scope,
        hits=[h.memory.id for h in hits],
        top=[h.memory.id for h in hits[: request.limit * 3]],
    )
    hits += _successors_missing(hits, around.superseded_by, vector, "SUPERSEDES")
    hits += _successors_missing(hits, around.retracted_by, vector, "CONTRADICTS")
    standing = standing_for(scope, request, vector)
    replies = replies_to(scope, request, hits)
    hits += _not_reached(hits, [*standing, *replies], vector)  # one read for both
    results = project(
        request=request,
        hits=hits,
        superseded_by=around.superseded_by,
        supersedes=around.supersedes,
        retracted_by=around.retracted_by,
        families=around.families,
        pinned=_exact_pin(request.query, bm25_scores),
        holding=holding,
        standing=list(standing),
        restated=restated,
        replies=replies,
    )
    if reinforce:  # a count the answer does not wait for (memory.search.reinforce)
        reinforce_recalled([h.memory.id for h in results])
    answered = [as_result(h) for h in results]
    if include_chunks:
        answered = with_chunks(answered, scope=scope, request=request, vector=vector)
    return {
        "ok": True,
        "query": request.query,
        "mode": request.mode.name,
        "scope": request.scope,
        "results": answered,
        "count": len(answered),
    }


def _with_speakers(request: SearchRequest, scope: Scope) -> SearchRequest:
    """A speaker the query names is matched by who said a memory (the speaker preference), so
    the words and the meaning are matched without their name (memory.search.speakers)."""
    if settings.HELIX_SEARCH_SPEAKER_WEIGHT <= 0:
        return request
    few = scope.steady() and gathers(scope, MEMORIES.table) is not None
    return replace(request, speakers=speakers_named(scope, request.query, prepared=few))


def _with_kind(bm25: Bm25, scope: Scope, request: SearchRequest) -> Bm25:
    """A question asking for a kind of thing ("What pets does Nate have?") finds, through BM25, the
    memories naming an instance of it (a dog) as if they named the kind (memory.search.kinds)."""
    weight = settings.HELIX_SEARCH_KIND_WEIGHT
    kind = asked_kind(request.matched) if weight > 0 else None
    if kind is None:
        return bm25
    rows, lexemes = kind_holders(scope, request, kind)
    return holding_once(bm25, rows, lexemes, weight)


def _links_for_ppr(ids: list) -> list:
    """The edges among the hits, only when graph proximity counts in the score."""
    return links_among(ids) if settings.HELIX_SEARCH_PPR_WEIGHT > 0 else []


def _scope(
    actor: Actor,
    user_id: str | None,
    *,
    concept: str | None = None,
    tags: tuple[str, ...] = (),
    category: str | None = None,
    filters: MemoryFilter | None = None,
) -> Scope:
    scope = Scope.of(actor, user_id, concept=concept, tags=tuple(tags), category=category, filters=filters)
    if category is None:
        return scope
    # Every filing under the path, whoever may see it: what reading the category's filings reads.
    return dataclasses.replace(scope, category_rows=category_size(readable=None, user_id=None, path=category))


def _category(text: str | None) -> str | None:
    return category_path_parse(text, field="category") if text not in (None, "") else None


def _successors_missing(hits: list[Hit], successors_of: dict, vector, edge_type: str) -> list[Hit]:
    """What replaced or retracted hits (``successors_of``) that the seeds and the walk did not reach."""
    have = {h.memory.id for h in hits}
    missing = {s: old for old, successors in successors_of.items() for s in successors if s not in have}
    if not missing:
        return []
    found = recalled(list(missing), vector)
    return [
        Hit(
            memory=memory,
            origin="edge",
            cosine=memory.cosine,
            reached=Reached(depth=1, edge_type=edge_type, via=missing[memory_id]),
        )
        for memory_id, memory in found.items()
    ]


def _not_reached(hits: list[Hit], wanted: list[uuid.UUID], vector) -> list[Hit]:
    """What a request also needs (the standing instructions it bears on, the replies to its asks)
    that the seeds and the walk did not reach."""
    have = {h.memory.id for h in hits}
    missing = list(dict.fromkeys(memory_id for memory_id in wanted if memory_id not in have))
    if not missing:
        return []
    return [Hit(memory=memory, origin="seed", cosine=memory.cosine) for memory in recalled(missing, vector).values()]


def _exact_pin(query: str, bm25_scores: dict):
    """A query with a rare exact token keeps its rank-1 BM25 hit in the top k."""
    if not bm25_scores or not rare_tokens(query):
        return None
    return max(bm25_scores, key=bm25_scores.__getitem__)


# --- variants of recall on the same engine ---------------------------------------------------


def memory_search_by_concept(
    *, actor: Actor, concept: str, tags: list[str] | None = None, query: str | None = None, **params
) -> dict:
    """Memories that are instances of an ontology concept (and carry the tags), ranked by the query."""
    known = list(Concept.objects.order_by("name").values_list("name", flat=True))
    if concept not in known:
        raise InvalidInput(f"concept must be one of: {', '.join(known)}.", code="unknown_concept", field="concept")
    return memory_search(actor=actor, concept=concept, tags=tuple(tags or ()), query=query or concept, **params)


def memory_reasoning_chain(
    *,
    actor: Actor,
    query: str,
    user_id: str | None = None,
    direction: str = "both",
    max_depth: int = 5,
    seeds: int = 3,
) -> dict:
    """From the best matches for ``query``, the chains of IMPLIES / BECAUSE / CONTRADICTS / SUPPORTS edges."""
    scope_name = "personal" if user_id else "all"
    found = memory_search(actor=actor, query=query, user_id=user_id, scope=scope_name, limit=seeds, graph_depth=0)
    seed_ids = [uuid.UUID(r["id"]) for r in found["results"]]
    chains = reasoning_chains(_scope(actor, user_id), seed_ids, direction=direction, max_depth=max_depth)
    contents = _contents({i for chain in chains for step in chain for i in (step.source, step.target)} | set(seed_ids))
    return {
        "ok": True,
        "direction": direction,
        "seeds": found["results"],
        "chains": [_chain(chain, contents) for chain in chains],
    }


def memory_connect(*, actor: Actor, a: str, b: str, user_id: str | None = None, max_depth: int = 4) -> dict:
    """One typed path between two anchors (memory ids or text), with its cumulative confidence."""
    start, goal = _anchor(actor, a, "a", user_id), _anchor(actor, b, "b", user_id)
    path = shortest_path(_scope(actor, None), start.id, goal.id, max_depth=max_depth)
    result = {"ok": True, "from": _brief(start), "to": _brief(goal)}
    if path is None:
        return {**result, "path": None, "reason": f"no path of at most {max_depth} edges between them"}
    contents = _contents({i for step in path for i in (step.source, step.target)})
    chain = _chain(path, contents)
    return {**result, "path": chain["steps"], "confidence": chain["confidence"]}


def memory_graph(*, actor: Actor, memory_id=None, user_id: str | None = None, depth: int = 2, limit: int = 50) -> dict:
    """A bounded neighbourhood as nodes and edges: around a memory, or an owner's newest memories."""
    scope = _scope(actor, None)
    if memory_id is not None:
        center = memory_get_for_actor(actor=actor, memory_id=memory_id)
        nodes, steps = neighbourhood(scope, center.id, depth=depth, limit=limit)
    elif user_id:
        nodes = {m.id for m in memory_list(actor=actor, user_id=user_id, limit=limit, include_superseded=True)}
        steps = [s for s in neighbours(scope, list(nodes)) if s.source in nodes and s.target in nodes]
    else:
        raise InvalidInput("Give memory_id or user_id.", field="memory_id")
    contents = _contents(nodes)
    return {
        "ok": True,
        "nodes": [{"id": str(i), **contents[i]} for i in nodes if i in contents],
        "edges": [
            {"source": str(s.source), "target": str(s.target), "type": s.edge_type, "confidence": s.confidence}
            for s in steps
        ],
    }


# A request's standing rules take at most this part of a context's budget before everything else.
STANDING_SHARE = 8
# A memory too long for what is left of the budget is packed as an excerpt of it
# (memory.search.excerpts) in at most this part of the budget, rather than left out: a page of
# code ranked first gives its lines the question names, not its place to the memories after it.
# At most EXCERPT_TOKENS whatever the budget: past the lines naming the question and those beside
# them an excerpt holds its weakest lines, and a larger budget is better spent on whole memories.
EXCERPT_SHARE = 5
EXCERPT_TOKENS = 200
# An excerpt of fewer tokens than this says too little to be worth its line.
EXCERPT_LEAST = 25


def memory_build_context(
    *,
    actor: Actor,
    query: str,
    user_id: str | None = None,
    token_budget: int | None = None,
    include_chunks: bool = False,
    **params,
) -> dict:
    """The best memories for a query, diversified (MMR) and packed within a token budget, each with its id.

    ``include_chunks``: document chunks compete for the budget too, each packed as ``[n] text``
    and listed in ``citations`` under its number; a memory extracted from a chunk ends with the
    chunk's number. The memory holding the value an attribute question asks for is packed first,
    marked ``attribute_match``."""
    budget = settings.HELIX_CONTEXT_DEFAULT_TOKENS if token_budget is None else token_budget
    pool = memory_search(
        actor=actor,
        query=query,
        user_id=user_id,
        limit=params.pop("limit", 40),
        include_chunks=include_chunks,
        **params,
    )["results"]
    chosen = _mmr([r for r in pool if not r["superseded"]], settings.HELIX_CONTEXT_MMR_LAMBDA)
    chosen = _standing_first(chosen, budget)
    packing = _Packing(budget)
    share = max(1, min(budget // EXCERPT_SHARE, EXCERPT_TOKENS))
    late: list[int] = []
    for place, result in enumerate(chosen):
        if packing.add(place, result, result["content"], packing.left):
            continue
        if packing.left >= share:  # too long for the rest: an excerpt in a share of the budget
            packing.add_excerpt(place, result, query, share)
        else:  # too long for the end of the budget: an excerpt in what the memories after it leave
            late.append(place)
    for place in late:
        packing.add_excerpt(place, chosen[place], query, min(share, packing.left))
    lines: list[str] = []
    packed: list[dict] = []
    chunks: list[dict] = []
    for place in sorted(packing.placed):
        kind, entry, line = packing.placed[place]
        (chunks if kind == "chunk" else packed).append(entry)
        lines.append(line)
    used, citations = packing.used, packing.citations
    context = {"ok": True, "context": "\n".join(lines), "memories": packed, "tokens": used, "token_budget": budget}
    if include_chunks:
        context.update(chunks=chunks, citations=list(citations.values()))
    return context


@dataclasses.dataclass
class _Packing:
    """What ``build_context`` has packed so far: each result's entry and line by its place in the
    ranking, the tokens they cost, and the chunks cited, numbered in the order they were packed."""

    budget: int
    used: int = 0
    placed: dict[int, tuple[str, dict, str]] = dataclasses.field(default_factory=dict)
    citations: dict[tuple, dict] = dataclasses.field(default_factory=dict)  # (document, version, chunk index)

    @property
    def left(self) -> int:
        return self.budget - self.used

    def add(self, place: int, result: dict, content: str, room: int) -> bool:
        """Pack ``result`` with ``content`` (its own, or an excerpt of it) when its line costs at
        most ``room`` tokens."""
        cited = result.get("citation")
        key = (cited["document_id"], cited["version"], cited["chunk_index"]) if cited else ()
        number = self.citations[key]["n"] if key in self.citations else len(self.citations) + 1
        entry, line = _entry_line(result, content, number)
        cost = estimate_tokens(line)
        if cost > room:
            return False
        if cited and key not in self.citations:
            self.citations[key] = {"n": number, **cited}
        self.placed[place] = (result.get("kind", "memory"), {**entry, "tokens": cost}, line)
        self.used += cost
        return True

    def add_excerpt(self, place: int, result: dict, query: str, room: int) -> bool:
        """Pack the excerpt of ``result`` for ``query`` whose line costs at most ``room`` tokens,
        when that leaves its text at least ``EXCERPT_LEAST``."""
        text_room = room - estimate_tokens(_entry_line(result, "", len(self.citations) + 1)[1])
        if text_room < EXCERPT_LEAST:
            return False
        return self.add(place, result, excerpt(result["content"], query, text_room), room)


def _entry_line(result: dict, content: str, number: int) -> tuple[dict, str]:
    """What ``build_context`` lists of a result packed with ``content``, and its line in the text;
    ``number``: the citation number of its chunk."""
    entry = {"id": result["id"], "content": content, "score": result["score"]}
    if content != result["content"]:
        entry["excerpt"] = True
    if result["signals"]["attribute_match"]:
        entry["attribute_match"] = True
    if result.get("kind") == "chunk":
        entry.update(n=number, citation=result["citation"])
        return entry, chunk_context_line(entry)
    if result.get("citation"):
        entry["cites"] = number
    return entry, memory_context_line(entry)


def _standing_first(chosen: list[dict], budget: int) -> list[dict]:
    """A request's standing rules (memory.search.standing) govern the work it asks for, whatever
    else is packed, and rank last among its results: they go first, within ``1 / STANDING_SHARE``
    of the budget (the rest keep their places), so the work the request builds on still has the most."""
    first, used = [], 0
    for result in chosen:
        if result.get("standing") and result.get("kind") != "chunk":
            cost = estimate_tokens(memory_context_line({"id": result["id"], "content": result["content"]}))
            if used + cost <= budget // STANDING_SHARE:
                first.append(result)
                used += cost
    packed_first = {id(r) for r in first}
    return first + [r for r in chosen if id(r) not in packed_first]


def memory_context_line(entry: dict) -> str:
    """A packed memory: ``- [id] text``, then `` [n]`` when it was extracted from cited chunk n."""
    cites = f" [{entry['cites']}]" if "cites" in entry else ""
    return f"- [{entry['id']}] {entry['content']}{cites}"


def chunk_context_line(entry: dict) -> str:
    """A packed chunk: ``[n] title › headings: text``."""
    cited = entry["citation"]
    return f"[{entry['n']}] {chunk_place(cited['title'], cited['heading'])}: {entry['content']}"


def estimate_tokens(text: str) -> int:
    """About four characters a token for English text: the estimate the budget is kept against."""
    return max(1, math.ceil(len(text) / 4))


def _mmr(results: list[dict], lam: float) -> list[dict]:
    """Maximal marginal relevance: relevance against similarity to what was already chosen."""
    if len(results) <= 1:
        return results
    ids = [r["id"] for r in results]
    vectors = dict(Memory.objects.filter(id__in=ids).values_list("id", "embedding"))
    chunk_ids = [r["id"] for r in results if r.get("kind") == "chunk"]
    if chunk_ids:
        vectors.update(chunk_vectors(chunk_ids))
    matrix = np.array([np.asarray(vectors[uuid.UUID(i)], dtype=np.float32) for i in ids])
    top = max(r["score"] for r in results) or 1.0
    relevance = np.array([r["score"] / top for r in results])
    chosen: list[int] = []
    remaining = list(range(len(results)))
    while remaining:
        similarity = (matrix[remaining] @ matrix[chosen].T).max(axis=1) if chosen else np.zeros(len(remaining))
        best = remaining[int(np.argmax(lam * relevance[remaining] - (1 - lam) * similarity))]
        chosen.append(best)
        remaining.remove(best)
    return [results[i] for i in chosen]


def _anchor(actor: Actor, value: str, field: str, user_id: str | None) -> Memory:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{field} must be a memory id or a text.", field=field)
    try:
        return memory_get_for_actor(actor=actor, memory_id=uuid.UUID(value.strip()))
    except ValueError:
        pass
    found = memory_search(
        actor=actor, query=value, user_id=user_id, scope="personal" if user_id else "all", limit=1, graph_depth=0
    )
    if not found["results"]:
        raise NotFound(f"No memory matches {field}.", field=field)
    return Memory.objects.get(pk=found["results"][0]["id"])


def _contents(ids: set) -> dict:
    rows = Memory.objects.filter(id__in=ids).values("id", "content", "memory_type", "user_id", "valid_to")
    return {
        r["id"]: {
            "content": r["content"],
            "memory_type": r["memory_type"],
            "user_id": r["user_id"],
            "superseded": r["valid_to"] is not None,
        }
        for r in rows
    }


def _brief(memory: Memory) -> dict:
    return {"id": str(memory.id), "content": memory.content}


def _chain(steps: list[Step], contents: dict) -> dict:
    confidence = 1.0
    trail = []
    for step in steps:
        confidence *= step.confidence
        reached = step.source if step.reversed else step.target
        trail.append(
            {
                "from": str(step.target if step.reversed else step.source),
                "to": str(reached),
                "edge": step.edge_type,
                "direction": "backward" if step.reversed else "forward",
                "confidence": step.confidence,
                "content": contents.get(reached, {}).get("content"),
            }
        )
    return {"steps": trail, "confidence": round(confidence, 4)}

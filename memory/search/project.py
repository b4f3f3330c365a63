"""Stage 4: shape the ranked hits into the answer.

- superseded rows stay, ×0.6 and labelled with what superseded them;
- a row superseded in part (a longer memory still current, of which a later memory updated one
  value) stays as it is, labelled ``superseded_in_part_by``; every successor ranks above what it
  supersedes, wholly or in part, and lists it in ``supersedes``;
- a retracted row ("I'm not vegetarian after all") stays, below its retraction and labelled with it;
- a raw source and its atoms (PART_OF) show once, as their best-ranked member, the rest in ``collapsed``;
  where that member is an atom that gives no value of the kind the question asks for ("How long …?",
  "What time …?") and its raw source does, the raw source shows in its place: an atom is one fact of
  its message, and the message's value may be in a sentence no atom kept;
- collective and all scopes fold the same fact held by several owners, with the holder count;
- with an explicit window, reached rows outside it come last, at most 3, labelled ``flashback``;
- a rare exact token's rank-1 BM25 hit stays in the top k;
- so do the best ``HELIX_SEARCH_PART_TOP`` hits of the vector signal alone and of BM25 alone;
- a request for work keeps its last places for the owner's standing instructions it did not
  reach (memory.search.standing), labelled ``standing``;
- a later statement restating an earlier hit with a change ranks just above it, labelled ``restates``
  (memory.search.restatements);
- a request's reply to an earlier ask among its best hits ranks right after the ask, labelled
  ``replies_to`` (memory.search.replies);
- the memory holding the current value an attribute question asks for ("Where does Zoe live
  now?", memory.search.attributes) ranks first, labelled ``attribute_match``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings

from memory.search.params import SearchRequest
from memory.search.restatements import Restatement, value_asked
from memory.search.score import Hit


def project(
    *,
    request: SearchRequest,
    hits: list[Hit],
    superseded_by: dict[uuid.UUID, list[uuid.UUID]],
    retracted_by: dict[uuid.UUID, list[uuid.UUID]],
    families: dict[uuid.UUID, uuid.UUID],
    pinned: uuid.UUID | None,
    holding: uuid.UUID | None = None,
    standing: Sequence[uuid.UUID] = (),
    supersedes: dict[uuid.UUID, list[uuid.UUID]] | None = None,
    restated: Sequence[Restatement] = (),
    replies: dict[uuid.UUID, uuid.UUID] | None = None,
) -> list[Hit]:
    by_id = {hit.memory.id: hit for hit in hits}
    for hit in hits:
        successors = superseded_by.get(hit.memory.id, [])
        if hit.memory.valid_to is not None:
            # The current version of a fact the query matched is at least as relevant as the old one.
            for successor in (by_id[s] for s in successors if s in by_id):
                successor.score = max(successor.score, hit.score + 1e-3)
            hit.score *= settings.HELIX_SEARCH_SUPERSEDED_PENALTY
            hit.flags["superseded"] = True
            hit.flags["superseded_by"] = [str(i) for i in successors]
        elif successors:
            hit.flags["superseded_in_part_by"] = [str(i) for i in successors]
    for hit in hits:
        retractions = [by_id[r] for r in retracted_by.get(hit.memory.id, []) if r in by_id]
        # The owner said this was wrong: the retraction answers the same query first.
        for retraction in retractions:
            retraction.score = max(retraction.score, hit.score + 1e-3)
        if retractions:
            hit.flags["retracted_by"] = [str(r.memory.id) for r in retractions]
    _successors_above(hits, by_id, superseded_by, supersedes or {})
    # A later statement of the same thing that says it changed goes just above it; of several
    # restating one hit, the latest first ("eleven minutes" in January, "six minutes now" in February).
    above: dict[uuid.UUID, float] = {}
    for restatement in sorted(restated, key=lambda r: by_id[r.later].event_time):
        later = by_id[restatement.later]
        if restatement.above is not None:
            floor = above.get(restatement.above, by_id[restatement.above].score)
            later.score = max(later.score, floor + 1e-3)
            above[restatement.above] = later.score
        if restatement.updates is not None:
            later.flags["restates"] = str(restatement.updates)
    for reply_id, ask_id in (replies or {}).items():
        # What answered the ask the request repeats comes right after it (memory.search.replies).
        if reply_id in by_id and ask_id in by_id:
            reply = by_id[reply_id]
            reply.score = max(reply.score, by_id[ask_id].score - 1e-4)
            reply.flags["replies_to"] = str(ask_id)
    if holding is not None and holding in by_id:
        # It holds the very value asked for, of the very person: what only shares the question's
        # words or meaning (a relative's value of the same attribute, an old one, a relative's chain
        # of values each raised above the one before) comes after it; only what updates it comes first.
        held = by_id[holding]
        held.score = max(held.score, max(h.score for h in hits) + 1e-3)
        held.flags["attribute_match"] = True
        updating = set(superseded_by.get(holding, [])) | {
            new for new, olds in (supersedes or {}).items() if holding in olds
        }
        for successor in (by_id[s] for s in updating if s in by_id):
            successor.score = held.score + 1e-3
    ranked = sorted(hits, key=lambda h: -h.score)
    ranked = _collapse_families(ranked, families, value_asked(request.query) if families else None)
    if request.scope != "personal":
        ranked = _fold_holders(ranked)
    ranked = [h for h in ranked if h.score >= request.mode.min_score]
    inside: list[Hit] = []
    outside: list[Hit] = []
    for hit in ranked:
        if not request.window.explicit or request.window.contains(hit.event_time):
            inside.append(hit)
        elif hit.origin == "edge":
            outside.append(hit)
    top = _parts_kept(inside, request.limit)
    if pinned is not None and all(h.memory.id != pinned for h in top):
        exact = next((h for h in inside if h.memory.id == pinned), None)
        if exact is not None:
            exact.flags["exact_match"] = True
            top = [*top[: request.limit - 1], exact]
    top = _with_standing(top, by_id, standing, request.limit)
    for hit in outside[: settings.HELIX_SEARCH_FLASHBACK_MAX]:
        hit.flags["flashback"] = True
    return top + outside[: settings.HELIX_SEARCH_FLASHBACK_MAX]


def _parts_kept(ranked: list[Hit], limit: int) -> list[Hit]:
    """The first ``limit`` of ``ranked``, holding every hit that the vector or the BM25 signal alone
    ranks among its ``HELIX_SEARCH_PART_TOP`` best: what one signal is surest of is not pushed out
    by what the blend favours. Each such hit left below the limit takes the place of the lowest
    ranked hit that is not one; the order stays the blend's."""
    best = settings.HELIX_SEARCH_PART_TOP
    top = ranked[:limit]
    if best <= 0:
        return top

    def owed(hit: Hit) -> bool:
        return min(hit.vector_rank or best + 1, hit.bm25_rank or best + 1) <= best

    below = [h for h in ranked[limit:] if owed(h)]
    if not below:
        return top
    kept = [h for h in top if owed(h)]
    others = [h for h in top if not owed(h)]
    chosen = {id(h) for h in [*kept, *others[: max(limit - len(kept) - len(below), 0)], *below]}
    return [h for h in ranked if id(h) in chosen][:limit]


def _with_standing(top: list[Hit], by_id: dict[uuid.UUID, Hit], standing: Sequence[uuid.UUID], limit: int) -> list[Hit]:
    """The standing instructions a request bears on (memory.search.standing) in the last places of
    ``top`` when it did not reach them, nearest first; a row they push out is the lowest ranked."""
    reached = {h.memory.id for h in top}
    for hit in top:
        if hit.memory.id in standing:
            hit.flags["standing"] = True
    added = [by_id[i] for i in standing if i not in reached and i in by_id]
    for hit in added:
        hit.flags["standing"] = True
    if not added:
        return top
    kept = [h for h in top if h.flags.get("standing") or h.flags.get("exact_match")]
    others = [h for h in top if h not in kept]
    room = max(limit - len(kept) - len(added), 0)
    return [h for h in top if h in kept or h in others[:room]] + added[: max(limit - len(kept), 0)]


def _successors_above(
    hits: list[Hit],
    by_id: dict[uuid.UUID, Hit],
    superseded_by: dict[uuid.UUID, list[uuid.UUID]],
    supersedes: dict[uuid.UUID, list[uuid.UUID]],
) -> None:
    """Each successor just above every predecessor of it among the hits, whatever raised the
    predecessor (an attribute match, a retraction), and labelled with what it supersedes."""
    pairs = {(old, new) for old, successors in superseded_by.items() for new in successors}
    pairs |= {(old, new) for new, predecessors in supersedes.items() for old in predecessors}
    for old, new in sorted(pairs):
        if new in by_id:
            labelled = by_id[new].flags.setdefault("supersedes", [])
            if str(old) not in labelled:
                labelled.append(str(old))
    present = [(by_id[old], by_id[new]) for old, new in pairs if old in by_id and new in by_id]
    for _ in range(len(present)):  # a chain (a → b → c) settles in as many passes as it is long
        raised = False
        for old_hit, new_hit in present:
            if new_hit.score <= old_hit.score:
                new_hit.score = old_hit.score + 1e-3
                raised = True
        if not raised:
            break


def _collapse_families(
    ranked: list[Hit], families: dict[uuid.UUID, uuid.UUID], gives: Callable[[str], bool] | None
) -> list[Hit]:
    """``families`` maps an atom to its raw source; a raw source is its own family. ``gives``: whether
    a text gives a value of the kind asked (``value_asked``), for the raw source to show in place of
    an atom without one."""
    kept: dict[uuid.UUID, Hit] = {}
    result = []
    for hit in ranked:
        family = families.get(hit.memory.id, hit.memory.id)
        shown = kept.get(family)
        if shown is None:
            kept[family] = hit
            result.append(hit)
        elif gives and hit.memory.id == family and not gives(shown.memory.content) and gives(hit.memory.content):
            hit.flags["collapsed"] = [str(shown.memory.id), *shown.flags.pop("collapsed", [])]
            hit.score = max(hit.score, shown.score)
            result[result.index(shown)] = kept[family] = hit
        else:
            shown.flags.setdefault("collapsed", []).append(str(hit.memory.id))
    return result


def _fold_holders(ranked: list[Hit]) -> list[Hit]:
    """The same fact (one fingerprint) held by several visible owners shows once."""
    kept: dict[str, Hit] = {}
    result = []
    for hit in ranked:
        key = hit.memory.content_key
        if key in kept:
            holders = kept[key].flags.setdefault("holders", [kept[key].memory.user_id])
            if hit.memory.user_id not in holders:
                holders.append(hit.memory.user_id)
            kept[key].flags.setdefault("collapsed", []).append(str(hit.memory.id))
            continue
        kept[key] = hit
        result.append(hit)
    for hit in result:
        holders = hit.flags.pop("holders", [hit.memory.user_id])
        hit.flags["holders"] = len(holders)
    return result


def as_result(hit: Hit) -> dict[str, Any]:
    memory = hit.memory
    result: dict[str, Any] = {
        "id": str(memory.id),
        "kind": "memory",
        "content": memory.content,
        "memory_type": memory.memory_type,
        "user_id": memory.user_id,
        "agent_id": memory.agent_id,
        "score": round(hit.score, 4),
        "event_date": hit.event_time.isoformat(),
        "created_at": memory.created_at.isoformat(),
        "updated_at": memory.updated_at.isoformat(),
        "expires_at": memory.expires_at.isoformat() if memory.expires_at else None,
        "metadata": memory.metadata,
        "signals": {
            "cosine": round(hit.cosine, 4),
            "bm25": None if hit.bm25 is None else round(hit.bm25, 4),
            "bm25_rank": hit.bm25_rank,
            "vector_rank": hit.vector_rank,
            "rrf_rank": hit.rrf_rank,
            "semantic": round(hit.semantic, 4),
            "ppr": None if hit.ppr is None else round(hit.ppr, 4),
            "freshness": round(hit.freshness, 4),
            "importance": memory.importance,
            "in_named_time": bool(hit.flags.get("in_named_time")),
            "said_by_named": bool(hit.flags.get("said_by_named")),
            "only_asks": bool(hit.flags.get("only_asks")),
            "attribute_match": bool(hit.flags.get("attribute_match")),
        },
        "origin": hit.origin,
        "superseded": bool(hit.flags.get("superseded")),
        "flashback": bool(hit.flags.get("flashback")),
    }
    if hit.reached is not None:
        result["edge"] = {"type": hit.reached.edge_type, "from": str(hit.reached.via), "depth": hit.reached.depth}
    labels = ("superseded_by", "superseded_in_part_by", "supersedes", "retracted_by", "collapsed", "holders")
    for key in (*labels, "exact_match", "standing", "restates", "replies_to"):
        if key in hit.flags:
            result[key] = hit.flags[key]
    return result

"""Recall quality on synthetic conversations: recall@5, recall@10 and MRR for hybrid,
vector-only and BM25-only seeds, for extract=true and extract=false ingestion; and how
often the current value of a changed fact ranks above its superseded value."""

from __future__ import annotations

import json
import os
import time

from django.test import override_settings

from bench import conversations, conversations_hard
from bench.conversations import Dataset
from bench.setup import prepared
from memory.ingest.extract import Conversation
from memory.models import Memory
from memory.search.conductor import memory_search
from memory.services.add import memory_add

CONFIGS = {
    "hybrid (defaults)": {"HELIX_SEARCH_SEEDS": "hybrid"},
    "hybrid, max-normalized BM25": {"HELIX_SEARCH_SEEDS": "hybrid", "HELIX_SEARCH_BM25_NORMALIZATION": "max"},
    "hybrid, PPR weight 0.15": {"HELIX_SEARCH_SEEDS": "hybrid", "HELIX_SEARCH_PPR_WEIGHT": 0.15},
    "hybrid (RRF k=60)": {"HELIX_SEARCH_SEEDS": "hybrid", "HELIX_SEARCH_FUSION": "rrf"},
    "vector only": {"HELIX_SEARCH_SEEDS": "vector"},
    "BM25 only": {"HELIX_SEARCH_SEEDS": "bm25"},
}


SWEEP = {
    f"w={w} ppr={ppr} imp={imp}": {
        "HELIX_SEARCH_SEEDS": "hybrid",
        "HELIX_SEARCH_FUSION": "blend",
        "HELIX_SEARCH_BLEND_BM25_WEIGHT": w,
        "HELIX_SEARCH_PPR_WEIGHT": ppr,
        "HELIX_SEARCH_IMPORTANCE_WEIGHT": imp,
    }
    for w in (0.2, 0.3, 0.4, 0.5, 0.6)
    for ppr in (0.0,)
    for imp in (0.05,)
}


def run() -> None:
    """BENCH_RECALL_REUSE=1 keeps what an earlier run ingested and only evaluates again.
    BENCH_RECALL_SET=hard runs the harder set (bench/conversations_hard.py) in a workspace of its
    own; BENCH_RECALL_EXTRACT=true or false runs one ingestion mode only. BENCH_RECALL_SETTINGS, a JSON
    object of settings (or a list of them), evaluates hybrid search under each instead of the
    configurations above."""
    hard = os.environ.get("BENCH_RECALL_SET", "default") == "hard"
    workspace, prefixes = ("bench-recall-hard", ("h1-", "h0-")) if hard else ("bench-recall", ("x1-", "x0-"))
    actor = prepared(workspace=workspace)
    data = conversations_hard.generate() if hard else conversations.generate()
    if hard:
        print("set: hard")
    print(f"{len(data.turns)} turns of {len({t.user_id for t in data.turns})} people, {len(data.questions)} questions")
    modes = {"true": (True,), "false": (False,)}.get(os.environ.get("BENCH_RECALL_EXTRACT", ""), (True, False))
    for extract, prefix in ((True, prefixes[0]), (False, prefixes[1])):
        if extract not in modes:
            continue
        owned = Memory.objects.filter(user_id__startswith=prefix)
        if not (os.environ.get("BENCH_RECALL_REUSE") and owned.exists()):
            owned.delete()
            started = time.perf_counter()
            _ingest(actor, data, prefix, extract=extract, group=workspace)
            print(f"\nextract={str(extract).lower()}: ingested in {time.perf_counter() - started:.1f} s", end="")
        print(f"\nextract={str(extract).lower()}: {owned.count()} memories")
        configs = _configs()
        for name, overrides in configs.items():
            with override_settings(**overrides):
                print(f"  {name:28} {_evaluate(actor, data, prefix)}")


def _configs() -> dict[str, dict]:
    given = os.environ.get("BENCH_RECALL_SETTINGS")
    if given:
        chosen = json.loads(given)
        return {json.dumps(c): c for c in (chosen if isinstance(chosen, list) else [chosen])}
    return SWEEP if os.environ.get("BENCH_RECALL_CONFIGS") == "sweep" else CONFIGS


def _ingest(actor, data: Dataset, prefix: str, *, extract: bool, group: str) -> None:
    for turn in data.turns:
        memory_add(
            actor=actor,
            user_id=prefix + turn.user_id,
            message=turn.text,
            group_id=group,
            extract=extract,
            metadata={"turn": turn.id},
            occurred_at=turn.when,
            conversation=Conversation(previous_assistant=turn.previous_assistant),
        )


def _evaluate(actor, data: Dataset, prefix: str) -> str:
    hits5 = hits10 = reciprocal = ordered = changed = 0
    by_kind: dict[str, list[int]] = {}
    for question in data.questions:
        results = memory_search(actor=actor, query=question.text, user_id=prefix + question.user_id, limit=10)[
            "results"
        ]
        turns = [_turns_of(r) for r in results]
        rank = next((i for i, t in enumerate(turns, start=1) if t & question.answers), None)
        hits5 += bool(rank and rank <= 5)
        hits10 += bool(rank)
        reciprocal += 1 / rank if rank else 0
        by_kind.setdefault(question.kind, []).append(bool(rank and rank <= 5))
        if question.superseded:
            changed += 1
            old = next((i for i, t in enumerate(turns, start=1) if t & question.superseded), None)
            ordered += bool(rank and (old is None or rank < old))
    n = len(data.questions)
    kinds = ", ".join(f"{kind} {sum(v) / len(v):.2f}" for kind, v in sorted(by_kind.items()))
    return (
        f"recall@5 {hits5 / n:.3f}  recall@10 {hits10 / n:.3f}  MRR {reciprocal / n:.3f}  "
        f"current-above-superseded {ordered / max(changed, 1):.3f}  (recall@5 by kind: {kinds})"
    )


def _turns_of(result: dict) -> set[str]:
    """The turns a result stands for: its own, and those of the family members folded into it."""
    turns = {result["metadata"].get("turn")}
    if result.get("collapsed"):
        turns |= set(Memory.objects.filter(id__in=result["collapsed"]).values_list("metadata__turn", flat=True))
    return turns - {None}

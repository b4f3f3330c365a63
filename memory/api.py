"""The memory tools: add, search and its variants, read, correct, forget."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from helixsite.agents.tool import ActorInput, ToolApi
from memory.models import Memory, MemoryType
from memory.outbox.services import memory_add_submit
from memory.search.graph import DIRECTIONS
from memory.search.params import SCOPES
from memory.selectors import (
    memory_build_context,
    memory_connect,
    memory_detail,
    memory_graph,
    memory_list,
    memory_reasoning_chain,
    memory_search,
    memory_search_by_concept,
)
from memory.services import memory_forget, memory_restore, memory_update

# --- shared shapes ---------------------------------------------------------------------------


class SearchOptions(serializers.Serializer):
    mode = serializers.CharField(
        required=False, max_length=20, help_text="recent | contextual | deep | full (presets: count, depth, freshness)"
    )
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100)
    scope = serializers.ChoiceField(choices=SCOPES, default="personal", help_text="collective/all rank across owners")
    temporal_days = serializers.IntegerField(required=False, min_value=1, max_value=36500)
    time_from = serializers.CharField(required=False, max_length=40, help_text="RFC 3339 or YYYY-MM-DD")
    time_to = serializers.CharField(required=False, max_length=40, help_text="RFC 3339 or YYYY-MM-DD")
    graph_depth = serializers.IntegerField(required=False, min_value=0, max_value=4)


class SignalsOut(serializers.Serializer):
    cosine = serializers.FloatField()
    bm25 = serializers.FloatField(allow_null=True)
    bm25_rank = serializers.IntegerField(allow_null=True)
    vector_rank = serializers.IntegerField(allow_null=True)
    rrf_rank = serializers.IntegerField(allow_null=True)
    semantic = serializers.FloatField()
    ppr = serializers.FloatField(allow_null=True)
    freshness = serializers.FloatField()
    importance = serializers.FloatField()


class EdgeReachedOut(serializers.Serializer):
    type = serializers.CharField()
    depth = serializers.IntegerField()
    # "from" is a Python keyword; declared below.


EdgeReachedOut._declared_fields["from"] = serializers.UUIDField()


class ResultOut(serializers.Serializer):
    id = serializers.UUIDField()
    content = serializers.CharField()
    memory_type = serializers.CharField()
    user_id = serializers.CharField()
    score = serializers.FloatField()
    event_date = serializers.DateTimeField()
    created_at = serializers.DateTimeField()
    metadata = serializers.DictField(help_text="the caller's metadata, as written")
    signals = SignalsOut()
    origin = serializers.ChoiceField(choices=["seed", "edge"], help_text="a seed of the query, or reached over an edge")
    superseded = serializers.BooleanField()
    flashback = serializers.BooleanField()
    edge = EdgeReachedOut(required=False, help_text="for rows reached over the graph")
    superseded_by = serializers.ListField(child=serializers.UUIDField(), required=False)
    collapsed = serializers.ListField(child=serializers.UUIDField(), required=False)
    holders = serializers.IntegerField(required=False, help_text="owners holding this fact (collective/all)")
    exact_match = serializers.BooleanField(required=False)


class SearchOut(serializers.Serializer):
    ok = serializers.BooleanField()
    query = serializers.CharField()
    mode = serializers.CharField()
    scope = serializers.CharField()
    results = ResultOut(many=True)
    count = serializers.IntegerField()


class MemoryOut(serializers.Serializer):
    id = serializers.UUIDField()
    content = serializers.CharField()
    memory_type = serializers.CharField()
    user_id = serializers.CharField()
    author = serializers.CharField(source="author.username")
    agent_id = serializers.CharField()
    source = serializers.CharField()
    certainty = serializers.IntegerField()
    importance = serializers.FloatField()
    metadata = serializers.DictField()
    context_tags = serializers.ListField(child=serializers.CharField())
    immutable = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    valid_from = serializers.DateTimeField(help_text="event time")
    valid_to = serializers.DateTimeField(allow_null=True, help_text="set when superseded")
    deleted_at = serializers.DateTimeField(allow_null=True)
    superseded = serializers.SerializerMethodField()

    def get_superseded(self, memory: Memory) -> bool:
        return memory.valid_to is not None


MEMORY_EXAMPLE = {
    "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01", "content": "alice lives in Lisbon", "memory_type": "fact",
    "user_id": "alice", "author": "codex", "agent_id": "codex-1", "source": "extraction", "certainty": 80,
    "importance": 0.6, "metadata": {}, "context_tags": [], "immutable": False,
    "created_at": "2026-10-02T09:00:00+00:00", "updated_at": "2026-10-02T09:00:00+00:00",
    "valid_from": "2026-10-02T09:00:00+00:00", "valid_to": None, "deleted_at": None, "superseded": False,
}  # fmt: skip


def memory_out(memory: Memory) -> dict[str, Any]:
    return dict(MemoryOut(memory).data)


# --- tools -----------------------------------------------------------------------------------


class AddMemoryApi(ToolApi):
    """Turn a message into atomic memories: extract, deduplicate, decide (add, update,
    supersede, contradict, link or skip) per fact."""

    tool = "add_memory"
    example = {
        "request": {
            "actor_id": "codex",
            "user_id": "alice",
            "group_id": "team-red",
            "message": "I moved to Lisbon last month and I now prefer tea over coffee.",
        },
        "response": {
            "ok": True,
            "memory_ids": ["3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"],
            "updated": [],
            "deduped": [],
            "skipped": [],
            "superseded": ["9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d"],
            "contradicted": [],
            "needs_clarification": [],
            "decisions": [],
            "run_id": "5b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
        },
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200, help_text="whose memory this is (the subject)")
        message = serializers.CharField(trim_whitespace=False)
        group_id = serializers.CharField(
            required=False, max_length=100, help_text="workspace slug or id; required when you can write to several"
        )
        agent_id = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
        metadata = serializers.DictField(required=False, help_text="returned with the memory in results")
        occurred_at = serializers.CharField(required=False, max_length=40, help_text="event time, RFC 3339")
        extract = serializers.BooleanField(default=True, help_text="false: store the message verbatim")
        context = serializers.JSONField(required=False, help_text="recent turns: {turns: [{role, content}]}")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory_ids = serializers.ListField(child=serializers.UUIDField(), required=False)
        updated = serializers.ListField(child=serializers.UUIDField(), required=False)
        deduped = serializers.ListField(child=serializers.UUIDField(), required=False)
        skipped = serializers.ListField(child=serializers.DictField(), required=False)
        superseded = serializers.ListField(child=serializers.UUIDField(), required=False)
        contradicted = serializers.ListField(child=serializers.UUIDField(), required=False)
        needs_clarification = serializers.ListField(child=serializers.DictField(), required=False)
        decisions = serializers.ListField(child=serializers.DictField(), required=False)
        run_id = serializers.UUIDField(required=False)
        status = serializers.CharField(required=False, help_text='"accepted" when the write is buffered')
        pending_id = serializers.UUIDField(required=False)
        pending_outcomes = serializers.ListField(
            child=serializers.DictField(),
            required=False,
            help_text="earlier outcomes and notices: add_outcome, contradiction_review, rule_proposal, ops_alert",
        )
        adopted_rule = serializers.DictField(required=False, help_text="when the call was a rule proposal's")
        already_adopted = serializers.BooleanField(required=False)

    @classmethod
    def run(cls, *, actor: Any, **params: Any) -> dict[str, Any]:
        return memory_add_submit(actor=actor, **params)


class SearchMemoryApi(ToolApi):
    """Hybrid recall (vector + BM25 + graph) over the memories the caller may see."""

    tool = "search_memory"
    reads = True
    example = {
        "request": {"actor_id": "codex", "user_id": "alice", "query": "where does alice live", "mode": "contextual"},
        "response": {
            "ok": True,
            "query": "where does alice live",
            "mode": "contextual",
            "scope": "personal",
            "count": 1,
            "results": [
                {
                    "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "content": "alice lives in Lisbon",
                    "memory_type": "fact",
                    "user_id": "alice",
                    "score": 0.8123,
                    "event_date": "2026-10-02T09:00:00+00:00",
                    "created_at": "2026-10-02T09:00:00+00:00",
                    "metadata": {},
                    "signals": {
                        "cosine": 0.71,
                        "bm25": 6.2,
                        "bm25_rank": 1,
                        "vector_rank": 1,
                        "rrf_rank": 1,
                        "semantic": 0.83,
                        "ppr": None,
                        "freshness": 0.12,
                        "importance": 0.6,
                    },
                    "origin": "seed",
                    "superseded": False,
                    "flashback": False,
                }
            ],
        },
    }

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(required=False, max_length=200, help_text="required for scope=personal")
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)

    OutputSerializer = SearchOut

    @classmethod
    def run(cls, *, actor: Any, **params: Any) -> dict[str, Any]:
        return memory_search(actor=actor, **params)


class ListMemoriesApi(ToolApi):
    """Newest first, paged with ``cursor``: an audit view, not recall."""

    tool = "list_memories"
    reads = True
    example = {
        "request": {"actor_id": "codex", "user_id": "alice", "limit": 1},
        "response": {"ok": True, "count": 1, "next_cursor": 1, "memories": [MEMORY_EXAMPLE]},
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(required=False, max_length=200)
        memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
        include_superseded = serializers.BooleanField(default=False)
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        cursor = serializers.IntegerField(min_value=0, default=0, help_text="next_cursor of the previous page")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memories = MemoryOut(many=True)
        count = serializers.IntegerField()
        next_cursor = serializers.IntegerField(allow_null=True, help_text="null on the last page")

    @classmethod
    def run(cls, *, actor: Any, limit: int, cursor: int, **params: Any) -> dict[str, Any]:
        page = memory_list(actor=actor, limit=limit + 1, offset=cursor, **params)
        more = len(page) > limit
        memories = [memory_out(m) for m in page[:limit]]
        return {
            "ok": True,
            "memories": memories,
            "count": len(memories),
            "next_cursor": cursor + limit if more else None,
        }


class GetMemoryApi(ToolApi):
    """One memory by id, with its edges to memories the caller may see and its history."""

    tool = "get_memory"
    reads = True
    example = {
        "request": {"actor_id": "codex", "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"},
        "response": {
            "ok": True,
            "memory": MEMORY_EXAMPLE,
            "history": [],
            "edges": [
                {
                    "direction": "out",
                    "type": "SUPERSEDES",
                    "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                    "confidence": 0.9,
                    "created_at": "2026-10-02T09:00:00+00:00",
                }
            ],
        },
    }

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory = MemoryOut()
        edges = serializers.ListField(child=serializers.DictField())
        history = serializers.ListField(child=serializers.DictField())

    @classmethod
    def run(cls, *, actor: Any, memory_id: Any) -> dict[str, Any]:
        detail = memory_detail(actor=actor, memory_id=memory_id)
        edges = [
            {"direction": direction, "type": e.edge_type, "source": str(e.source_id), "target": str(e.target_id),
             "confidence": e.confidence, "created_at": e.created_at.isoformat()}
            for direction, group in (("out", detail.edges_out), ("in", detail.edges_in)) for e in group
        ]  # fmt: skip
        history = [
            {"action": h.action, "old_content": h.old_content, "new_content": h.new_content, "reason": h.reason,
             "actor": h.actor.username if h.actor else None, "created_at": h.created_at.isoformat()}
            for h in detail.history
        ]  # fmt: skip
        return {"ok": True, "memory": memory_out(detail.memory), "edges": edges, "history": history}


class UpdateMemoryApi(ToolApi):
    """Correct a known memory's content by id (new embedding, history kept). Not for
    rephrasing: new information goes through add_memory, which decides to update or supersede."""

    tool = "update_memory"
    example = {
        "request": {
            "actor_id": "codex",
            "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
            "user_id": "alice",
            "new_content": "alice lives in Lisbon, Portugal",
            "reason": "country was missing",
        },
        "response": {"ok": True, "memory": MEMORY_EXAMPLE},
    }

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        user_id = serializers.CharField(max_length=200, help_text="the memory's owner, as a check")
        new_content = serializers.CharField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory = MemoryOut()

    @classmethod
    def run(cls, *, actor: Any, memory_id: Any, user_id: str, new_content: str, reason: str) -> dict[str, Any]:
        memory = memory_update(actor=actor, memory_id=memory_id, content=new_content, reason=reason, user_id=user_id)
        return {"ok": True, "memory": memory_out(memory)}


class ForgetMemoryApi(ToolApi):
    """Soft-delete a memory (author, moderator or admin); history kept, an admin can restore."""

    tool = "forget_memory"
    example = {
        "request": {
            "actor_id": "codex",
            "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
            "reason": "recorded by mistake",
        },
        "response": {
            "ok": True,
            "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
            "forgotten_at": "2026-11-02T10:00:00+00:00",
        },
    }

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory_id = serializers.UUIDField()
        forgotten_at = serializers.DateTimeField()

    @classmethod
    def run(cls, *, actor: Any, memory_id: Any, reason: str) -> dict[str, Any]:
        memory = memory_forget(actor=actor, memory_id=memory_id, reason=reason)
        return {"ok": True, "memory_id": str(memory.id), "forgotten_at": memory.deleted_at.isoformat()}


class RestoreMemoryApi(ToolApi):
    """Bring back a forgotten memory (global admins)."""

    tool = "restore_memory"
    example = {
        "request": {
            "actor_id": "admin",
            "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
            "reason": "forgotten by mistake",
        },
        "response": {"ok": True, "memory": MEMORY_EXAMPLE},
    }

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory = MemoryOut()

    @classmethod
    def run(cls, *, actor: Any, memory_id: Any, reason: str) -> dict[str, Any]:
        return {"ok": True, "memory": memory_out(memory_restore(actor=actor, memory_id=memory_id, reason=reason))}


class GetMemoryGraphApi(ToolApi):
    """A bounded neighbourhood as nodes and edges: around a memory, or an owner's newest."""

    tool = "get_memory_graph"
    reads = True
    example = {
        "request": {
            "actor_id": "codex",
            "user_id": "alice",
            "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
            "depth": 2,
        },
        "response": {
            "ok": True,
            "nodes": [
                {
                    "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "content": "alice lives in Lisbon",
                    "memory_type": "fact",
                },
                {
                    "id": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                    "content": "alice lives in Osaka",
                    "memory_type": "fact",
                },
            ],
            "edges": [
                {
                    "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                    "type": "SUPERSEDES",
                    "confidence": 0.9,
                }
            ],
        },
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200)
        memory_id = serializers.UUIDField(required=False)
        depth = serializers.IntegerField(min_value=1, max_value=4, default=2)
        limit = serializers.IntegerField(min_value=1, max_value=500, default=50)

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        nodes = serializers.ListField(child=serializers.DictField())
        edges = serializers.ListField(child=serializers.DictField())

    @classmethod
    def run(cls, *, actor: Any, **params: Any) -> dict[str, Any]:
        return memory_graph(actor=actor, **params)


class SearchByConceptApi(ToolApi):
    """Memories that are instances of a concept (preference, skill, goal…), ranked by the query."""

    tool = "search_by_concept"
    reads = True
    example = {
        "request": {"actor_id": "codex", "user_id": "alice", "query": "drinks", "concept_type": "preference"},
        "response": {
            "ok": True,
            "query": "drinks",
            "mode": "contextual",
            "scope": "personal",
            "count": 0,
            "results": [],
        },
    }

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(max_length=200)
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        concept_type = serializers.CharField(max_length=50, help_text="preference, skill, goal, fact, opinion…")
        tags = serializers.ListField(child=serializers.CharField(max_length=100), required=False, max_length=20)

    OutputSerializer = SearchOut

    @classmethod
    def run(cls, *, actor: Any, concept_type: str, **params: Any) -> dict[str, Any]:
        return memory_search_by_concept(actor=actor, concept=concept_type, **params)


class SearchReasoningChainApi(ToolApi):
    """Why / what follows: chains of IMPLIES, BECAUSE, CONTRADICTS, SUPPORTS from the best matches."""

    tool = "search_reasoning_chain"
    reads = True
    example = {
        "request": {
            "actor_id": "codex",
            "user_id": "alice",
            "query": "why did we pick PostgreSQL",
            "chain_mode": "causal",
        },
        "response": {
            "ok": True,
            "direction": "causal",
            "seeds": [],
            "chains": [
                {
                    "steps": [
                        {
                            "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                            "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                            "type": "BECAUSE",
                            "confidence": 0.8,
                        }
                    ],
                    "confidence": 0.8,
                }
            ],
        },
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200)
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        chain_mode = serializers.ChoiceField(choices=list(DIRECTIONS), default="both")
        max_depth = serializers.IntegerField(min_value=1, max_value=10, default=5)
        limit = serializers.IntegerField(min_value=1, max_value=10, default=3, help_text="how many seeds")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        direction = serializers.CharField()
        seeds = ResultOut(many=True)
        chains = serializers.ListField(child=serializers.DictField())

    @classmethod
    def run(cls, *, actor: Any, chain_mode: str, limit: int, **params: Any) -> dict[str, Any]:
        return memory_reasoning_chain(actor=actor, direction=chain_mode, seeds=limit, **params)


class ConnectMemoriesApi(ToolApi):
    """How A relates to B: one typed path between two anchors (text or ids), or a clear no-path."""

    tool = "connect_memories"
    reads = True
    example = {
        "request": {"actor_id": "codex", "user_id": "alice", "query_a": "Lisbon", "query_b": "Osaka"},
        "response": {
            "ok": True,
            "from": {"id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01", "content": "alice lives in Lisbon"},
            "to": {"id": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d", "content": "alice lives in Osaka"},
            "path": [
                {
                    "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                    "type": "SUPERSEDES",
                    "confidence": 0.9,
                }
            ],
            "confidence": 0.9,
        },
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200)
        query_a = serializers.CharField(max_length=2000, help_text="a memory id or text")
        query_b = serializers.CharField(max_length=2000, help_text="a memory id or text")
        max_depth = serializers.IntegerField(min_value=1, max_value=6, default=4)

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        path = serializers.ListField(child=serializers.DictField(), allow_null=True)
        confidence = serializers.FloatField(required=False)
        reason = serializers.CharField(required=False, help_text="why there is no path")

    OutputSerializer._declared_fields["from"] = serializers.DictField()
    OutputSerializer._declared_fields["to"] = serializers.DictField()

    @classmethod
    def run(cls, *, actor: Any, query_a: str, query_b: str, **params: Any) -> dict[str, Any]:
        return memory_connect(actor=actor, a=query_a, b=query_b, **params)


class BuildContextApi(ToolApi):
    """The best memories for a query, diversified and packed within a token budget, with ids to cite."""

    tool = "build_context"
    reads = True
    example = {
        "request": {"actor_id": "codex", "user_id": "alice", "query": "plan alice's trip", "token_budget": 200},
        "response": {
            "ok": True,
            "context": "- [3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01] alice lives in Lisbon",
            "tokens": 14,
            "token_budget": 200,
            "memories": [
                {
                    "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                    "content": "alice lives in Lisbon",
                    "score": 0.81,
                    "tokens": 14,
                }
            ],
        },
    }

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(required=False, max_length=200, help_text="required for scope=personal")
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        token_budget = serializers.IntegerField(required=False, min_value=16, max_value=32000)

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        context = serializers.CharField()
        memories = serializers.ListField(child=serializers.DictField())
        tokens = serializers.IntegerField()
        token_budget = serializers.IntegerField()

    @classmethod
    def run(cls, *, actor: Any, **params: Any) -> dict[str, Any]:
        return memory_build_context(actor=actor, **params)

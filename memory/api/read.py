"""The memory tools that read: search and its variants, list, get, graph, context."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.request import Request

from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from memory.answering import memory_answer, memory_context
from memory.api import examples
from memory.api.shapes import (
    ChunkCitationOut,
    FiltersField,
    MemoryOut,
    ResultOut,
    SearchOptions,
    SearchOut,
    memory_out,
)
from memory.models import MemoryType
from memory.profiles import profile_out, profiles_get
from memory.search.conductor import (
    memory_connect,
    memory_graph,
    memory_reasoning_chain,
    memory_search,
    memory_search_by_concept,
    memory_search_prefetch,
)
from memory.search.graph import DIRECTIONS
from memory.selectors import memory_detail, memory_list
from rbac.actors import Actor


class SearchMemoryApi(ToolApi):
    """Hybrid recall (vector + BM25 + graph) over the memories the caller may see."""

    tool = "search_memory"
    kind = ToolKind.SEARCH
    example = examples.SEARCH_MEMORY

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(required=False, max_length=200, help_text="required for scope=personal")
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        category = serializers.CharField(
            required=False, max_length=200, help_text="only memories filed in this category or below (list_categories)"
        )
        include_chunks = serializers.BooleanField(
            default=False, help_text="document chunks too (add_document), ranked with the memories, with citations"
        )
        filters = FiltersField()

    OutputSerializer = SearchOut

    def prefetch(self, request: Request) -> Callable[[], None] | None:
        # A body that does not parse is refused here, before the budget is spent.
        raw = request.data if request.method == "POST" else request.query_params
        if not isinstance(raw, Mapping) or not isinstance(request.user, User):
            return None
        return memory_search_prefetch(actor=request.user, raw=raw)

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return memory_search(actor=actor, **params)


class ListMemoriesApi(ToolApi):
    """Newest first, paged with ``cursor``: an audit view, not recall."""

    tool = "list_memories"
    kind = ToolKind.READ
    example = examples.LIST_MEMORIES

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(required=False, max_length=200)
        memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
        include_superseded = serializers.BooleanField(default=False)
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        cursor = serializers.IntegerField(
            min_value=0, max_value=10**9, default=0, help_text="next_cursor of the previous page"
        )
        filters = FiltersField()

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memories = MemoryOut(many=True)
        count = serializers.IntegerField()
        next_cursor = serializers.IntegerField(allow_null=True, help_text="null on the last page")

    @classmethod
    def run(cls, *, actor: Actor, limit: int, cursor: int, **params: Any) -> dict[str, Any]:
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
    kind = ToolKind.READ
    example = examples.GET_MEMORY

    class InputSerializer(ActorInput):
        memory_id = serializers.UUIDField()
        include_forgotten = serializers.BooleanField(
            default=False,
            help_text="a forgotten (or expired) memory is answered too, to those who may change it (its author "
            "with write access, a moderator, an admin); a forgotten one has deleted_at set and its history ends in "
            "FORGET",
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        memory = MemoryOut()
        edges = serializers.ListField(child=serializers.DictField())
        history = serializers.ListField(child=serializers.DictField())

    @classmethod
    def run(cls, *, actor: Actor, memory_id: Any, include_forgotten: bool) -> dict[str, Any]:
        detail = memory_detail(actor=actor, memory_id=memory_id, forgotten=include_forgotten)
        edges = [
            {
                "direction": direction,
                "type": e.edge_type,
                "source": str(e.source_id),
                "target": str(e.target_id),
                "confidence": e.confidence,
                "created_at": e.created_at.isoformat(),
            }
            for direction, group in (("out", detail.edges_out), ("in", detail.edges_in))
            for e in group
        ]
        history = [
            {
                "action": h.action,
                "old_content": h.old_content,
                "new_content": h.new_content,
                "reason": h.reason,
                "actor": h.actor.username if h.actor else None,
                "created_at": h.created_at.isoformat(),
            }
            for h in detail.history
        ]
        return {"ok": True, "memory": memory_out(detail.memory), "edges": edges, "history": history}


class GetMemoryGraphApi(ToolApi):
    """A bounded neighbourhood as nodes and edges: around a memory, or an owner's newest."""

    tool = "get_memory_graph"
    kind = ToolKind.READ
    example = examples.GET_MEMORY_GRAPH

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
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return memory_graph(actor=actor, **params)


class SearchByConceptApi(ToolApi):
    """Memories that are instances of a concept (preference, skill, goal…), ranked by the query."""

    tool = "search_by_concept"
    kind = ToolKind.SEARCH
    example = examples.SEARCH_BY_CONCEPT

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(max_length=200)
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        concept_type = serializers.CharField(max_length=50, help_text="preference, skill, goal, fact, opinion…")
        tags = serializers.ListField(child=serializers.CharField(max_length=100), required=False, max_length=20)

    OutputSerializer = SearchOut

    @classmethod
    def run(cls, *, actor: Actor, concept_type: str, **params: Any) -> dict[str, Any]:
        return memory_search_by_concept(actor=actor, concept=concept_type, **params)


class SearchReasoningChainApi(ToolApi):
    """Why / what follows: chains of IMPLIES, BECAUSE, CONTRADICTS, SUPPORTS from the best matches."""

    tool = "search_reasoning_chain"
    kind = ToolKind.SEARCH
    example = examples.SEARCH_REASONING_CHAIN

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
    def run(cls, *, actor: Actor, chain_mode: str, limit: int, **params: Any) -> dict[str, Any]:
        return memory_reasoning_chain(actor=actor, direction=chain_mode, seeds=limit, **params)


class ConnectMemoriesApi(ToolApi):
    """How A relates to B: one typed path between two anchors (text or ids), or a clear no-path."""

    tool = "connect_memories"
    kind = ToolKind.READ
    example = examples.CONNECT_MEMORIES

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
    def run(cls, *, actor: Actor, query_a: str, query_b: str, **params: Any) -> dict[str, Any]:
        return memory_connect(actor=actor, a=query_a, b=query_b, **params)


class BuildContextApi(ToolApi):
    """The best memories for a query, diversified and packed within a token budget, with ids to cite."""

    tool = "build_context"
    kind = ToolKind.SEARCH
    example = examples.BUILD_CONTEXT

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(required=False, max_length=200, help_text="required for scope=personal")
        query = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        token_budget = serializers.IntegerField(required=False, min_value=16, max_value=32000)
        include_profile = serializers.BooleanField(
            default=False, help_text="the owner's profile lines first (needs user_id), then the memories"
        )
        include_chunks = serializers.BooleanField(
            default=False, help_text="document chunks compete for the budget too, packed as [n] with citations"
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        # DRF's metaclass takes declared fields out of the class body, so this one does not
        # shadow Field.context; the stubs cannot know that.
        context = serializers.CharField()  # type: ignore[assignment]
        profile = serializers.ListField(
            child=serializers.DictField(), required=False, help_text="the profile lines packed, with include_profile"
        )
        memories = serializers.ListField(
            child=serializers.DictField(),
            help_text="each packed memory: id, content, score, tokens; excerpt: true when content is an excerpt of a"
            " memory too long for the budget (get_memory reads it whole)",
        )
        tokens = serializers.IntegerField()
        token_budget = serializers.IntegerField()
        chunks = serializers.ListField(
            child=serializers.DictField(), required=False, help_text="with include_chunks: the chunks packed, with n"
        )
        citations = serializers.ListField(
            child=serializers.DictField(),
            required=False,
            help_text="with include_chunks: what each [n] in the context cites (document, chunk, offsets)",
        )

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return memory_context(actor=actor, **params)


class ProfileLineOut(serializers.Serializer):
    text = serializers.CharField()
    memory_ids = serializers.ListField(child=serializers.UUIDField(), help_text="the memories it came from")
    kind = serializers.CharField(help_text="the memory type of its first source")


class ProfileOut(serializers.Serializer):
    workspace = serializers.CharField()
    user_id = serializers.CharField()
    static = ProfileLineOut(many=True, help_text="identity, stable preferences, background")
    dynamic = ProfileLineOut(many=True, help_text="current projects, recent context, open goals")
    method = serializers.CharField(help_text="rules, or llm when one condensed it")
    sources = serializers.IntegerField()
    stale = serializers.BooleanField(help_text="a write since the last refresh; the worker refreshes it shortly")
    refreshed_at = serializers.DateTimeField(allow_null=True)


class GetProfileApi(ToolApi):
    """The owner's profile in each workspace you can read (or in group_id): a static part
    (identity, stable preferences, background) and a dynamic one (current projects, recent
    context, open goals), every line citing the memories it came from."""

    tool = "get_profile"
    kind = ToolKind.READ
    reads_on_replica = False  # a profile never built is built first, then read back
    example = examples.GET_PROFILE

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(max_length=200, help_text="whose profile")
        group_id = serializers.CharField(required=False, max_length=100, help_text="workspace slug or id")

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        profiles = ProfileOut(many=True)

    @classmethod
    def run(cls, *, actor: Actor, user_id: str, group_id: str | None = None) -> dict[str, Any]:
        found = profiles_get(actor=actor, user_id=user_id, group_id=group_id)
        return {"ok": True, "profiles": [profile_out(p) for p in found]}


class CitationOut(serializers.Serializer):
    id = serializers.UUIDField()
    content = serializers.CharField()
    kind = serializers.ChoiceField(choices=["chunk"], required=False, help_text="set for a document chunk")
    citation = ChunkCitationOut(required=False, help_text="a chunk's place in its document")


class AnswerQuestionApi(ToolApi):
    """Answer a question from memory, citing the memories it rests on: with an LLM configured, one
    call over the packed context; without, the best-supported sentences (method "extractive").
    "Not in memory." (found=false) when nothing recalled answers it."""

    tool = "answer_question"
    kind = ToolKind.READ
    example = examples.ANSWER_QUESTION

    class InputSerializer(ActorInput, SearchOptions):
        user_id = serializers.CharField(required=False, max_length=200, help_text="required for scope=personal")
        question = serializers.CharField(max_length=settings.HELIX_SEARCH_MAX_QUERY_CHARS)
        token_budget = serializers.IntegerField(required=False, min_value=16, max_value=32000)
        include_chunks = serializers.BooleanField(
            default=False, help_text="answer from document chunks too, citing them (kind chunk)"
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        question = serializers.CharField()
        answer = serializers.CharField()
        found = serializers.BooleanField(help_text="false: the memories do not answer it")
        method = serializers.ChoiceField(choices=["llm", "extractive"])
        citations = CitationOut(many=True)
        dropped_citations = serializers.ListField(
            child=serializers.CharField(), help_text="ids the LLM cited that were not in the context"
        )
        llm_error = serializers.CharField(required=False, help_text="why the LLM did not answer (then extractive)")
        context = serializers.CharField()  # type: ignore[assignment]
        tokens = serializers.IntegerField()

    @classmethod
    def run(cls, *, actor: Actor, **params: Any) -> dict[str, Any]:
        return memory_answer(actor=actor, **params)

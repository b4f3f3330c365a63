"""Shapes several memory tools share: search options, a recall result, a memory."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from helixsite.errors import InvalidInput
from memory.models import Memory
from memory.search.filters import MemoryFilter, memory_filter_parse
from memory.search.params import SCOPES

FILTERS_HELP = (
    'mem0\'s filter language: {field: value | [values] | "*" | {op: value}}, AND / OR / NOT lists; '
    "fields user_id, agent_id, run_id, app_id, created_at, updated_at, timestamp, categories, keywords, "
    'metadata ({"metadata": {"colour": "red"}}); ops eq ne in nin gt gte lt lte contains icontains. '
    "Over GET, its JSON text."
)


@extend_schema_field({"type": "object", "additionalProperties": True})
class FiltersField(serializers.Field):
    """``filters``: a JSON object (its JSON text in a query string), checked and parsed at the door
    (memory.search.filters); a bad one is refused naming its part, e.g. ``filters.AND[1].metadata``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, allow_null=True, help_text=FILTERS_HELP, **kwargs)

    def to_internal_value(self, data: Any) -> MemoryFilter | None:
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                raise InvalidInput("filters must be a JSON object.", code="invalid_filter", field="filters") from None
        return memory_filter_parse(data, field=self.field_name or "filters")

    def to_representation(self, value: Any) -> Any:
        return value


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
    in_named_time = serializers.BooleanField(help_text="its event time lies in a time the query names ('in May 2022')")
    said_by_named = serializers.BooleanField(help_text="a line of a transcript said by a person the query names")
    only_asks = serializers.BooleanField(
        help_text="every sentence of it sharing a word with the query is a question ('What got you into books?'): "
        "ranked lower, as it tells nothing of them"
    )
    attribute_match = serializers.BooleanField(
        help_text="holds the current value of the attribute the question asks for, of the person it names "
        "('Where does Zoe live now?'): ranked first"
    )


class EdgeReachedOut(serializers.Serializer):
    type = serializers.CharField()
    depth = serializers.IntegerField()


EdgeReachedOut._declared_fields["from"] = serializers.UUIDField()


class ChunkCitationOut(serializers.Serializer):
    document_id = serializers.UUIDField()
    title = serializers.CharField()
    chunk_index = serializers.IntegerField()
    char_start = serializers.IntegerField()
    char_end = serializers.IntegerField(help_text="the chunk is the document's text[char_start:char_end]")
    source_url = serializers.CharField(allow_blank=True)
    heading = serializers.CharField(allow_blank=True, help_text="the headings the chunk sits under")
    page = serializers.IntegerField(allow_null=True, help_text="the page it starts on (PDF)")
    version = serializers.IntegerField(help_text="the document's version the chunk belongs to")


class ResultOut(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.ChoiceField(
        choices=["memory", "chunk"], help_text="chunk: a passage of a document (include_chunks), with its citation"
    )
    content = serializers.CharField()
    memory_type = serializers.CharField()
    user_id = serializers.CharField()
    agent_id = serializers.CharField(
        required=False, help_text="a memory's: the agent instance that wrote it ('' if none)"
    )
    score = serializers.FloatField()
    event_date = serializers.DateTimeField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField(required=False, help_text="a memory's: its last change")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="recalled until then; null: no expiry")
    metadata = serializers.DictField(help_text="the caller's metadata, as written")
    signals = SignalsOut()
    origin = serializers.ChoiceField(choices=["seed", "edge"], help_text="a seed of the query, or reached over an edge")
    superseded = serializers.BooleanField()
    flashback = serializers.BooleanField()
    edge = EdgeReachedOut(required=False, help_text="for rows reached over the graph")
    superseded_by = serializers.ListField(child=serializers.UUIDField(), required=False)
    superseded_in_part_by = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        help_text="later memories that updated a value this one states among other things; it stays current",
    )
    supersedes = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        help_text="earlier memories this one supersedes, wholly or in part; it ranks above them",
    )
    restates = serializers.UUIDField(
        required=False,
        help_text="an earlier memory this one says the same thing of with a change; it ranks just above it",
    )
    collapsed = serializers.ListField(child=serializers.UUIDField(), required=False)
    holders = serializers.IntegerField(required=False, help_text="owners holding this fact (collective/all)")
    exact_match = serializers.BooleanField(required=False)
    standing = serializers.BooleanField(
        required=False,
        help_text="a standing instruction or preference of the owner's that a request for work bears on",
    )
    replies_to = serializers.UUIDField(
        required=False,
        help_text="the owner's earlier ask this answered, which a request for work repeats; it ranks right after it",
    )
    citation = ChunkCitationOut(
        required=False, help_text="a chunk's place in its document; for a memory, the chunk it was extracted from"
    )


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
    # DRF's metaclass takes declared fields out of the class body, so this one does not shadow
    # Field.source; the stubs cannot know that.
    source = serializers.CharField()  # type: ignore[assignment]
    certainty = serializers.IntegerField()
    importance = serializers.FloatField()
    metadata = serializers.DictField()
    # Taken out of the class body like ``source`` below: it does not shadow Field.context.
    context = serializers.CharField(  # type: ignore[assignment]
        help_text="what was said just before it, in the same conversation ('' if nothing)"
    )
    context_tags = serializers.ListField(child=serializers.CharField())
    immutable = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    valid_from = serializers.DateTimeField(help_text="event time")
    valid_to = serializers.DateTimeField(allow_null=True, help_text="set when superseded")
    deleted_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True, help_text="recalled until then; null: no expiry")
    superseded = serializers.SerializerMethodField()

    def get_superseded(self, memory: Memory) -> bool:
        return memory.valid_to is not None


def memory_out(memory: Memory) -> dict[str, Any]:
    return dict(MemoryOut(memory).data)

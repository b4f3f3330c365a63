"""list_categories: the category tree as the caller can see it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from memory.categories.selectors import category_list
from rbac.actors import Actor


class CategoryOut(serializers.Serializer):
    path = serializers.CharField(help_text="segments joined by /, e.g. work/infrastructure")
    name = serializers.CharField(help_text="the last segment")
    # DRF's metaclass takes declared fields out of the class body, so this one does not shadow
    # Field.parent; the stubs cannot know that.
    parent = serializers.CharField(allow_null=True)  # type: ignore[assignment]
    depth = serializers.IntegerField(help_text="1 for a top-level category")
    memory_count = serializers.IntegerField(help_text="memories you can see, filed in it or below")
    last_updated = serializers.DateTimeField(
        help_text="the newest update of those memories (one replaced or forgotten since may still be the one named)"
    )


class ListCategoriesApi(ToolApi):
    """The categories memories are filed under, largest first, counted only over the memories the
    caller may see: a category with none of them is not listed. Pass a path to search_memory's
    ``category`` to recall within it."""

    tool = "list_categories"
    kind = ToolKind.READ
    example = {
        "request": {"actor_id": "codex", "user_id": "alice", "parent": "work"},
        "response": {
            "ok": True,
            "categories": [
                {
                    "path": "work/infrastructure",
                    "name": "infrastructure",
                    "parent": "work",
                    "depth": 2,
                    "memory_count": 12,
                    "last_updated": "2026-11-02T10:00:00+00:00",
                }
            ],
            "count": 1,
            "next_cursor": None,
        },
    }

    class InputSerializer(ActorInput):
        user_id = serializers.CharField(required=False, max_length=200, help_text="only this owner's memories")
        parent = serializers.CharField(  # type: ignore[assignment]  # a declared field, as in CategoryOut
            required=False, max_length=200, help_text="only the categories below this path"
        )
        limit = serializers.IntegerField(min_value=1, max_value=500, default=100)
        cursor = serializers.IntegerField(
            min_value=0, max_value=10**6, default=0, help_text="next_cursor of the previous page"
        )

    class OutputSerializer(serializers.Serializer):
        ok = serializers.BooleanField()
        categories = CategoryOut(many=True)
        count = serializers.IntegerField()
        next_cursor = serializers.IntegerField(allow_null=True, help_text="null on the last page")

    @classmethod
    def run(cls, *, actor: Actor, limit: int, cursor: int, **params: Any) -> dict[str, Any]:
        page = category_list(actor=actor, limit=limit + 1, offset=cursor, **params)
        more = len(page) > limit
        return {
            "ok": True,
            "categories": page[:limit],
            "count": len(page[:limit]),
            "next_cursor": cursor + limit if more else None,
        }

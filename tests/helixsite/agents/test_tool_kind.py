"""A tool's kind is the one fact behind everything that asks whether it only reads: GET and the
read replica, the restore guard of both transports, and the observatory's groups."""

from __future__ import annotations

import pytest

from helixsite.agents.catalogue import tool_classes
from helixsite.agents.tool import ActorInput, ToolApi, ToolKind
from stewardship import metrics


def test_a_tool_that_states_no_kind_is_refused_when_its_class_is_made():
    with pytest.raises(TypeError, match="states no kind"):

        class Unstated(ToolApi):  # noqa: F841 (the class statement is what is tested)
            tool = "unstated"
            InputSerializer = ActorInput
            OutputSerializer = ActorInput


def test_reading_follows_the_kind_and_answers_get_only_then():
    for tool in tool_classes():
        assert tool.reads is tool.kind.reads
        assert ("get" in tool.http_method_names) is tool.reads


def test_the_observatorys_groups_are_the_catalogues_tools_of_each_kind():
    kinds = {tool.tool: tool.kind for tool in tool_classes()}
    assert tuple(name for name, kind in kinds.items() if kind is ToolKind.MEMORY_WRITE) == metrics.WRITE_TOOLS
    assert metrics.SEARCH_TOOLS == ("search_memory", "search_by_concept", "search_reasoning_chain", "build_context")
    assert set(metrics.WRITE_TOOLS) == {
        "add_memory", "add_conversation", "update_memory", "forget_memory", "restore_memory",
        "resolve_contradiction", "think_commit",
    }  # fmt: skip

"""The tool catalogue: every agent tool, in the order the docs and the MCP server list them.

REST (``/api/v1/<tool>``), the MCP server and its ``config://helixsite`` resource all read
this one list, so the surfaces cannot drift apart."""

from __future__ import annotations

from helixsite.agent_api import ToolApi


def tool_classes() -> list[type[ToolApi]]:
    from memory import api as memory_api
    from rbac import api as rbac_api

    return [
        memory_api.AddMemoryApi,
        memory_api.SearchMemoryApi,
        memory_api.ListMemoriesApi,
        memory_api.GetMemoryApi,
        memory_api.UpdateMemoryApi,
        memory_api.ForgetMemoryApi,
        memory_api.RestoreMemoryApi,
        memory_api.GetMemoryGraphApi,
        memory_api.SearchByConceptApi,
        memory_api.SearchReasoningChainApi,
        memory_api.ConnectMemoriesApi,
        memory_api.BuildContextApi,
        rbac_api.ListUsersApi,
        rbac_api.EnrollClientApi,
    ]


def tools_by_name() -> dict[str, type[ToolApi]]:
    return {tool.tool: tool for tool in tool_classes()}

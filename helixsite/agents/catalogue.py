"""The tool catalogue: every agent tool, in the order the docs and the MCP server list them.

REST (``/api/v1/<tool>``), the MCP server and its ``config://helixsite`` resource all read
this one list, so the surfaces cannot drift apart."""

from __future__ import annotations

from helixsite.agents.tool import ToolApi
from memory import api as memory_api
from memory.charter import api as charter_api
from memory.fastthink import api as think_api
from memory.outbox import api as outbox_api
from rbac import api as rbac_api
from rbac.presence import api as presence_api


def tool_classes() -> list[type[ToolApi]]:
    return [
        memory_api.AddMemoryApi,
        outbox_api.GetAddStatusApi,
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
        think_api.SearchIncompleteThoughtsApi,
        rbac_api.ListUsersApi,
        rbac_api.EnrollClientApi,
        presence_api.AgentHeartbeatApi,
        presence_api.SwarmStatusApi,
        charter_api.ResolveContradictionApi,
        presence_api.AgentFarewellApi,
        think_api.ThinkStartApi,
        think_api.ThinkAddApi,
        think_api.ThinkRecallApi,
        think_api.ThinkConcludeApi,
        think_api.ThinkCommitApi,
        think_api.ThinkDiscardApi,
        think_api.ThinkStatusApi,
    ]


def tools_by_name() -> dict[str, type[ToolApi]]:
    return {tool.tool: tool for tool in tool_classes()}

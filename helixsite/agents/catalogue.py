"""The tool catalogue: every agent tool, in the order the docs and the MCP server list them.

REST (``/api/v1/<tool>``), the MCP server and its ``config://helixsite`` resource all read
this one list, so the surfaces cannot drift apart."""

from __future__ import annotations

from helixsite.agents.tool import ToolApi
from memory.api import read as memory_reads
from memory.api import write as memory_writes
from memory.categories import api as categories_api
from memory.charter import api as charter_api
from memory.documents import api as documents_api
from memory.fastthink import api as think_api
from memory.outbox import api as outbox_api
from rbac import api as rbac_api
from rbac.presence import api as presence_api


def tool_classes() -> list[type[ToolApi]]:
    return [
        memory_writes.AddMemoryApi,
        memory_writes.AddConversationApi,
        outbox_api.GetAddStatusApi,
        memory_reads.SearchMemoryApi,
        memory_reads.ListMemoriesApi,
        memory_reads.GetMemoryApi,
        memory_writes.UpdateMemoryApi,
        memory_writes.ForgetMemoryApi,
        memory_writes.RestoreMemoryApi,
        memory_reads.GetMemoryGraphApi,
        memory_reads.SearchByConceptApi,
        memory_reads.SearchReasoningChainApi,
        memory_reads.ConnectMemoriesApi,
        memory_reads.BuildContextApi,
        memory_reads.AnswerQuestionApi,
        memory_reads.GetProfileApi,
        documents_api.AddDocumentApi,
        documents_api.GetDocumentApi,
        documents_api.ListDocumentsApi,
        documents_api.ForgetDocumentApi,
        categories_api.ListCategoriesApi,
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

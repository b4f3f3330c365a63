"""The MCP server: every catalogue tool, the two prompts and the three resources.

One ``Server`` per transport. The transport says how a request's caller is known
(``authenticate``): stdio checks the token it was started with, HTTP hands over the token
its request presented.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import mcp_types as types
from asgiref.sync import sync_to_async
from django.contrib.contenttypes.models import ContentType
from django.db import close_old_connections
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from rest_framework.exceptions import APIException

from helixsite.agents.catalogue import tools_by_name
from helixsite.agents.mcp.prompts import PROMPTS, UnknownPrompt, prompt_get
from helixsite.agents.mcp.resources import RESOURCES, UnknownResource, helixsite_version, resource_read
from helixsite.agents.mcp.tools import input_schema, tool_call, tool_definitions
from helixsite.runtime.reload import runtime_refresh
from rbac.models import ApiToken

Result = TypeVar("Result")
# Who is calling: blocking (it may ask the database); raises DRF's authentication errors.
Authenticate = Callable[[ServerRequestContext], ApiToken]

INSTRUCTIONS = (
    "Helixsite is your long-term memory. Pass your token's principal as actor_id in every call. "
    "Get the prompt tool_selection_guide for which tool to call when and what never to store; "
    "the rules applied to your writes are in the resource memory://rules."
)


async def run_blocking(function: Callable[..., Result], /, *args: Any, **kwargs: Any) -> Result:
    """Run ORM work off the event loop, on a thread of its own, like a Django request: the
    thread's database connection is checked before and given back (or closed) after."""

    @functools.wraps(function)
    def in_request_bounds() -> Result:
        close_old_connections()
        # A stdio server lives as long as its host's session; a database restored (or, in
        # tests, flushed) meanwhile has new content-type ids, which permission checks look up.
        ContentType.objects.clear_cache()
        runtime_refresh()  # a patch applied in the room reaches MCP calls as it does REST ones
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    # Not thread-sensitive: calls from several clients run side by side, as REST requests do.
    return await sync_to_async(in_request_bounds, thread_sensitive=False)()


def build_server(*, authenticate: Authenticate) -> Server:
    async def list_tools(ctx: ServerRequestContext, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_definitions())

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools_by_name().get(params.name)
        if tool is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        return await run_blocking(
            tool_call, tool=tool, arguments=params.arguments or {}, authenticate=lambda: authenticate(ctx)
        )

    async def list_prompts(ctx: ServerRequestContext, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=PROMPTS)

    async def get_prompt(ctx: ServerRequestContext, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        def build() -> types.GetPromptResult:
            actor_id = authenticate(ctx).user.get_username()
            return prompt_get(name=params.name, arguments=params.arguments or {}, actor_id=actor_id)

        try:
            return await run_blocking(build)
        except UnknownPrompt:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {params.name}") from None
        except ValueError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        except APIException as exc:
            raise MCPError(code=types.INVALID_REQUEST, message=str(exc.detail)) from None

    async def list_resources(ctx: ServerRequestContext, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=RESOURCES)

    async def read_resource(ctx: ServerRequestContext, params: types.ReadResourceRequestParams) -> Any:
        try:
            return await run_blocking(lambda: resource_read(str(params.uri), actor=authenticate(ctx).user))
        except UnknownResource:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown resource: {params.uri}") from None

    return Server(
        "helixsite",
        version=helixsite_version(),
        title="Helixsite",
        instructions=INSTRUCTIONS,
        # Spares the 2026-07-28 HTTP path a tools/list per call to find a tool's schema.
        get_tool_input_schema=_known_input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


def _known_input_schema(name: str) -> dict[str, Any] | None:
    tool = tools_by_name().get(name)
    return None if tool is None else input_schema(tool)

"""The catalogue's tools as MCP tools: the same names, parameters and results as ``/api/v1/<tool>``.

A tool's ``inputSchema`` is the request schema drf-spectacular documents for its REST endpoint,
with every ``$ref`` resolved in place so an MCP host gets one self-contained JSON Schema. A call
runs ``ToolApi.call`` (the same actor check and validation as REST) and answers what REST would:
the result, or the error object of ``helixsite.errors`` as a tool error (``isError: true``).
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import mcp_types as types
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.renderers import JSONRenderer

from helixsite.agents.catalogue import tool_classes
from helixsite.agents.openapi import described
from helixsite.agents.throttle import rate_check
from helixsite.agents.tool import ToolApi
from helixsite.agents.usage import call_record
from helixsite.errors import api_exception_handler
from helixsite.restore_marker import tool_refused_during_restore
from rbac.models import ApiToken

logger = logging.getLogger("helixsite.mcp")


@functools.cache
def openapi_schema() -> dict[str, Any]:
    """The REST API's OpenAPI document, generated once per process."""
    return SchemaGenerator().get_schema(request=None, public=True)


def tool_definitions() -> list[types.Tool]:
    return [tool_definition(tool) for tool in tool_classes()]


def tool_definition(tool: type[ToolApi]) -> types.Tool:
    # No outputSchema: SDK clients reject a result that strays from an advertised output
    # schema, so one inexact OutputSerializer would make its tool unusable over MCP while REST
    # kept working. The OpenAPI document at /api/schema/ describes the results.
    return types.Tool(
        name=tool.tool,
        description=described(inspect.getdoc(tool) or tool.tool)[1],
        input_schema=input_schema(tool),
        # Memory is a closed world: a tool touches nothing outside Helixsite.
        annotations=types.ToolAnnotations(read_only_hint=tool.reads, open_world_hint=False),
    )


@functools.cache
def input_schema(tool: type[ToolApi]) -> dict[str, Any]:
    """The JSON Schema of the tool's REST request body, self-contained."""
    document = openapi_schema()
    operation = document["paths"][reverse(tool.tool)]["post"]
    schema = json_schema(operation["requestBody"]["content"]["application/json"]["schema"], document["components"])
    schema.pop("description", None)  # ToolInput's docstring, the same for every tool
    # Unknown parameters are refused (ToolInput), so the schema says so.
    return {**schema, "additionalProperties": False}


def json_schema(node: Any, components: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """An OpenAPI 3.0 schema as a self-contained JSON Schema: each ``$ref`` replaced by the
    component it names, ``nullable`` spelt as a "null" type, and a one-item ``allOf``
    (drf-spectacular's wrapper for an enum with its own description) merged into its parent,
    as some MCP hosts do not understand ``allOf``."""
    if isinstance(node, list):
        return [json_schema(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            raise ValueError(f"schema component {name} refers to itself; it cannot be inlined")
        siblings = json_schema({key: value for key, value in node.items() if key != "$ref"}, components, seen)
        return {**json_schema(components["schemas"][name], components, (*seen, name)), **siblings}
    resolved = {key: json_schema(value, components, seen) for key, value in node.items()}
    if len(resolved.get("allOf", ())) == 1:
        only = resolved.pop("allOf")[0]
        resolved = {**only, **resolved}
    if resolved.pop("nullable", False):
        resolved = _or_null(resolved)
    return resolved


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(schema.get("type"), str):
        return {"anyOf": [schema, {"type": "null"}]}
    widened = {**schema, "type": [schema["type"], "null"]}
    if "enum" in schema:
        widened["enum"] = [*schema["enum"], None]
    return widened


def tool_call(
    *, tool: type[ToolApi], arguments: dict[str, Any], authenticate: Callable[[], ApiToken]
) -> types.CallToolResult:
    """Run one tool as the caller's principal (blocking: call it off the event loop).

    Every failure REST answers in its error shape (bad token, throttled, invalid parameters,
    actor mismatch, refused by policy) comes back as that same object with ``isError``."""
    started, token = time.perf_counter(), None
    try:
        token = authenticate()
        tool_refused_during_restore(reads=tool.reads)
        rate_check(token=token)
        result = _result(tool.call(actor=token.user, arguments=arguments), error=False)
    except Exception as exc:
        response = api_exception_handler(exc, {"where": f"MCP tool {tool.tool}"})
        result = _result(response.data, error=True)
    _log(tool, token, result, started)
    call_record(
        tool=tool.tool,
        duration_ms=(time.perf_counter() - started) * 1000,
        failed=bool(result.is_error),
    )
    return result


def _log(tool: type[ToolApi], token: ApiToken | None, result: types.CallToolResult, started: float) -> None:
    """One line per call, like the request log: never the arguments, they carry people's data."""
    fields = {
        "tool": tool.tool,
        "principal": token.user.get_username() if token else None,
        "outcome": result.structured_content["error"]["code"] if result.is_error else "ok",
        "latency_ms": round((time.perf_counter() - started) * 1000, 2),
    }
    logger.info("mcp %s %s", tool.tool, fields["outcome"], extra={"fields": fields})


def _result(data: dict[str, Any], *, error: bool) -> types.CallToolResult:
    # REST's renderer, so ids, dates and numbers are written exactly as over HTTP.
    text = JSONRenderer().render(data).decode()
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content=json.loads(text), is_error=error
    )

"""search_memory over MCP (streamable HTTP), one client session, timed per call."""

from __future__ import annotations

import time

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def mcp_search_samples(url: str, token: str, actor_id: str, queries: list[tuple[str, str]]) -> list[float]:
    async def run() -> list[float]:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(url, http_client=http), read_timeout_seconds=120) as client:
            await client.call_tool("search_memory", {"actor_id": actor_id, "user_id": "user001", "query": "warm up"})
            samples = []
            for user_id, query in queries:
                started = time.perf_counter()
                result = await client.call_tool(
                    "search_memory", {"actor_id": actor_id, "user_id": user_id, "query": query}
                )
                samples.append((time.perf_counter() - started) * 1000)
                if result.is_error:
                    raise RuntimeError(f"search_memory over MCP failed: {result.content}")
            return samples

    return anyio.run(run)

"""helixsite.asgi: /mcp goes to the MCP transport, which runs between the server's lifespan
startup and shutdown; every other path is Django."""

from __future__ import annotations

import gc

import anyio
import httpx2
import pytest

from helixsite.agents.mcp.http import McpHttpApp
from helixsite.asgi import PathRouter, django_application
from memory.providers import EmbeddingUnavailable, get_embedder
from memory.providers.embeddings import LocalEmbedder

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def collector_as_it_was():
    """A lifespan startup freezes what the process holds; the test process is given it back."""
    yield
    gc.unfreeze()


LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


def http_client(app: PathRouter) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1")


async def test_mcp_serves_from_lifespan_startup_to_shutdown_and_other_paths_stay_django():
    app = PathRouter(django=django_application, mcp=McpHttpApp())
    to_app, app_inbox = anyio.create_memory_object_stream(1)
    app_outbox, from_app = anyio.create_memory_object_stream(1)

    async with http_client(app) as http, anyio.create_task_group() as tasks:
        before = await http.post("/mcp", json=LIST_TOOLS)
        tasks.start_soon(app, {"type": "lifespan", "asgi": {"version": "3.0"}}, app_inbox.receive, app_outbox.send)
        await to_app.send({"type": "lifespan.startup"})
        started = await from_app.receive()
        during = await http.post("/mcp", json=LIST_TOOLS)
        django = await http.get("/api/v1/whoami")
        await to_app.send({"type": "lifespan.shutdown"})
        stopped = await from_app.receive()
        after = await http.post("/mcp", json=LIST_TOOLS)

    assert (started["type"], stopped["type"]) == ("lifespan.startup.complete", "lifespan.shutdown.complete")
    assert during.status_code == 401 and during.json()["error"]["code"] == "unauthenticated"
    assert django.status_code == 401 and django.json()["error"]["code"] == "unauthenticated"
    for idle in (before, after):
        assert idle.status_code == 503
        assert idle.json()["error"] == {
            "code": "unavailable",
            "message": "MCP is not started: serve helixsite.asgi with lifespan on.",
        }


async def lifespan_startup(app: PathRouter) -> dict:
    """What the app answers to lifespan.startup (then it is shut down again)."""
    to_app, app_inbox = anyio.create_memory_object_stream(1)
    app_outbox, from_app = anyio.create_memory_object_stream(1)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(app, {"type": "lifespan", "asgi": {"version": "3.0"}}, app_inbox.receive, app_outbox.send)
        await to_app.send({"type": "lifespan.startup"})
        started = await from_app.receive()
        await to_app.send({"type": "lifespan.shutdown"})
        await from_app.receive()
    return started


async def test_a_web_worker_loads_the_embedding_model_before_its_first_request():
    started = await lifespan_startup(PathRouter(django=django_application, mcp=McpHttpApp()))

    assert started["type"] == "lifespan.startup.complete"
    assert get_embedder().loaded


async def test_a_web_worker_freezes_what_it_loaded_out_of_the_garbage_collectors_passes():
    """A full collection in a worker otherwise reads every object Django and the app loaded,
    holding the call it falls in for about a tenth of a second."""
    gc.unfreeze()
    loaded = len(gc.get_objects())

    started = await lifespan_startup(PathRouter(django=django_application, mcp=McpHttpApp()))

    assert started["type"] == "lifespan.startup.complete"
    assert gc.get_freeze_count() > loaded // 2
    assert len(gc.get_objects()) < loaded // 2


async def test_a_model_that_cannot_be_loaded_does_not_stop_the_server(monkeypatch, caplog):
    def broken(self):
        raise EmbeddingUnavailable("local embedding model could not be loaded: gone")

    monkeypatch.setattr(LocalEmbedder, "load", broken)
    started = await lifespan_startup(PathRouter(django=django_application, mcp=McpHttpApp()))

    assert started["type"] == "lifespan.startup.complete"
    assert "embedding model not loaded at startup: local embedding model could not be loaded: gone" in caplog.text


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        (None, 401),  # an agent: no Origin, on to the token check
        ("http://127.0.0.1", 401),  # this server's own page
        ("http://127.0.0.1:3000", 403),  # another site on the same host
        ("https://127.0.0.1", 403),  # another scheme
        ("https://attacker.example", 403),
    ],
)
async def test_only_this_servers_own_origin_or_a_trusted_one_may_call_from_a_browser(origin, status):
    mcp = McpHttpApp()
    headers = {"Origin": origin} if origin else {}
    async with mcp.lifespan(), http_client(PathRouter(django=django_application, mcp=mcp)) as http:
        response = await http.post("/mcp", json=LIST_TOOLS, headers=headers)

    assert response.status_code == status
    if status == 403:
        assert response.json()["error"]["code"] == "forbidden_origin"

"""The database out of reach is answered 503 database_unavailable, in the API's error shape over
REST and MCP and in plain text on pages, logged as one WARNING line; never a 500."""

from __future__ import annotations

import logging
import time

import httpx2
import pytest
from django.db import OperationalError, connection
from django.test import Client

from helixsite.agents.mcp.http import McpHttpApp
from helixsite.asgi import PathRouter, django_application
from helixsite.db.base import POOL_OUTAGE, DatabaseWrapper
from helixsite.db.outage import is_unreachable
from rbac.models import Principal
from tests.factories import bearer_client, make_agent_with_token, make_principal

UNAVAILABLE = {
    "ok": False,
    "error": {
        "code": "database_unavailable",
        "message": "The database cannot be reached right now; try again shortly.",
    },
}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
POOL_TIMEOUT = 30  # far above what a refusal may take on a busy machine


@pytest.fixture
def scout_token(transactional_db) -> str:
    """An agent's token, made while the database still takes connections."""
    return make_agent_with_token("scout")[1].raw


def test_an_api_call_is_a_503_in_the_error_shape_with_retry_after_and_one_warning_line(
    scout_token, database_refusing_new_connections, caplog
):
    agent = bearer_client(scout_token)
    connection.close()  # the request must open a new connection, which the database refuses

    with caplog.at_level(logging.INFO):
        response = agent.get("/api/v1/whoami")

    assert response.status_code == 503
    assert response.json() == UNAVAILABLE
    assert int(response["Retry-After"]) > 0
    lines = [(r.name, r.levelname, r.exc_info) for r in caplog.records if r.levelno >= logging.WARNING]
    assert lines == [("helixsite.request", "WARNING", None)]


@pytest.fixture
def admin_browser(transactional_db) -> Client:
    """A global admin logged in, answered as a browser is: a failure is a page, not an exception."""
    browser = Client(raise_request_exception=False)
    browser.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)
    return browser


def test_a_page_is_a_plain_503_not_the_500_page(admin_browser, database_refusing_new_connections, caplog):
    browser = admin_browser
    connection.close()

    with caplog.at_level(logging.INFO):
        response = browser.get("/admin/")

    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/plain")
    assert "The database cannot be reached right now" in response.content.decode()
    assert int(response["Retry-After"]) > 0
    lines = [(r.name, r.levelname, r.exc_info) for r in caplog.records if r.levelno >= logging.WARNING]
    assert lines == [("helixsite.request", "WARNING", None)]


def test_the_api_answers_again_once_the_database_takes_connections(scout_token, database_refusing_new_connections):
    agent = bearer_client(scout_token)
    connection.close()
    assert agent.get("/api/v1/whoami").status_code == 503

    database_refusing_new_connections(True)

    assert agent.get("/api/v1/whoami").json()["actor_id"] == "scout"


@pytest.mark.anyio
async def test_mcp_is_a_503_in_the_error_shape(scout_token, database_refusing_new_connections):
    mcp = McpHttpApp()
    app = PathRouter(django=django_application, mcp=mcp)
    headers = {"Authorization": f"Bearer {scout_token}", "Accept": "application/json, text/event-stream"}

    async with (
        mcp.lifespan(),
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1") as http,
    ):
        response = await http.post("/mcp", json=LIST_TOOLS, headers=headers)

    assert response.status_code == 503
    assert response.json() == UNAVAILABLE
    assert int(response.headers["Retry-After"]) > 0


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def pooled():
    """A connection like a web process's: through a psycopg pool."""
    pool = {"min_size": 1, "max_size": 2, "timeout": POOL_TIMEOUT}
    options = {**connection.settings_dict["OPTIONS"], "pool": pool}
    # The default alias (whose own connection has no pool here): signal handlers look aliases up.
    wrapper = DatabaseWrapper({**connection.settings_dict, "OPTIONS": options}, alias="default")
    yield wrapper
    wrapper.close()
    wrapper.close_pool()
    POOL_OUTAGE.recovered()


def test_through_the_pool_the_refusal_is_named_then_answered_at_once_and_a_new_pool_serves_on_return(
    database_refusing_new_connections, pooled
):
    for _ in range(2):  # the first waits a moment for the pool, the second is answered at once
        asked = time.monotonic()
        with pytest.raises(OperationalError) as refused:
            pooled.ensure_connection()
        assert time.monotonic() - asked < POOL_TIMEOUT / 2, "never the pool's whole timeout"
        assert is_unreachable(refused.value)
        assert "is not currently accepting connections" in str(refused.value), "the cause, not a pool timeout"

    database_refusing_new_connections(True)

    served = wait_for(lambda: _connects(pooled), timeout=60)
    assert served, "the database took connections again, the pool did not"
    with pooled.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def _connects(wrapper: DatabaseWrapper) -> bool:
    try:
        wrapper.ensure_connection()
    except OperationalError:
        return False
    return True


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return bool(predicate())

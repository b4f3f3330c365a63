"""Shared fixtures. The suite runs against the real embedded PostgreSQL (or DATABASE_URL)."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import psycopg
import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection, connections, transaction
from django.test import TestCase, override_settings
from playwright.sync_api import Page, expect, sync_playwright
from psycopg import sql
from pytest_django.live_server_helper import LiveServer

from helixsite import embedded_db
from memory.api.write import AddMemoryApi
from memory.services.add import memory_add
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace, tool_input
from tests.openai_compatible_server import OpenAICompatibleServer

_embedded_was_running: bool | None = None
T = TypeVar("T")
# How long a browser test's expect() waits for a page to show what it asserts, instead of
# Playwright's 5 s: the live server is a thread of the test's process, and on a busy machine it
# and chromium may take that long to answer a click. It passes as soon as the page shows it.
BROWSER_EXPECT_MS = 30_000


def pytest_configure(config: pytest.Config) -> None:
    global _embedded_was_running
    if embedded_db.uses_embedded():
        from django.conf import settings

        _embedded_was_running = embedded_db.status(settings.HELIX_DATA_DIR).running


def pytest_unconfigure(config: pytest.Config) -> None:
    """A server the test run had to start is stopped again at the end: by the run itself, not
    by one of its parallel workers (``-n``), whose siblings may still be using it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if _embedded_was_running is False and not os.environ.get("HELIX_KEEP_DB"):
        from django.conf import settings

        embedded_db.stop(settings.HELIX_DATA_DIR)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """After pytest-django's order (tests that roll back, then those that commit, then those that
    use no test database), the tests that use no test database from modules with slow tests go
    first. They are the longest of the suite (a replicated installation, `manage.py serve`, the
    model exported to ONNX): last, they ended the run on one process while the other had nothing
    left to take. First, the short tests fill in behind them. No test that uses the database
    moves, so each process still runs those that roll back before those that commit."""
    slow_modules = {item.fspath for item in items if item.get_closest_marker("slow")}

    def long_and_without_database(item: pytest.Item) -> bool:
        fixtures = getattr(item, "fixturenames", ())
        uses_database = item.get_closest_marker("django_db") or {"db", "transactional_db", "live_server"} & set(
            fixtures
        )
        return item.fspath in slow_modules and not uses_database

    first = [item for item in items if long_and_without_database(item)]
    items[:] = first + [item for item in items if not long_and_without_database(item)]


class _PromptWSGIServer(ThreadedWSGIServer):
    """Django's test server with Nagle's algorithm off on each connection it accepts. It writes an
    answer's headers and its body separately: on a kept-alive connection the body otherwise waits
    for the client's delayed acknowledgement, about 40 ms a request (thousands in the schemathesis
    run). The bytes sent are the same; only that wait goes."""

    def get_request(self) -> tuple[socket.socket, object]:
        sock, address = super().get_request()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock, address


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """pytest-django's ``live_server`` (same address options), served by ``_PromptWSGIServer``."""
    address = request.config.getvalue("liveserver") or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    server = LiveServer(address, start=False)
    server.thread.server_class = _PromptWSGIServer
    server.start()
    yield server
    server.stop()


@pytest.fixture
def browser_page(live_server, monkeypatch) -> Iterator[Page]:
    """A page in Debian's Chromium (`make test` installs it), driven by Playwright, for a test
    against ``live_server``.

    Playwright's sync API runs an event loop in the test's thread until it stops, and Django
    takes that thread for async code meanwhile: it refuses database calls unless allowed, and
    keeps their connection apart from the thread's own, so that one is closed here, before the
    loop stops (the test database could not be dropped at the end otherwise)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("browser tests need Debian's chromium: apt-get install -y --no-install-recommends chromium")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        expect.set_options(timeout=BROWSER_EXPECT_MS)
        try:
            yield browser.new_page()
        finally:
            expect.set_options(timeout=None)  # Playwright's own again
            browser.close()
            connections.close_all()


def rows_for_the_module(django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """``build()``'s rows made once for a module's tests, as Django's ``setUpTestData`` makes them
    once for a class: in a transaction around the module's tests, rolled back after the last one.
    Each test still runs in a savepoint of its own (``db``), rolled back after it, so what one
    test changes no other test sees. For a module-scoped fixture (``yield from``) of a module
    whose tests all roll back: a test that commits would flush the rows away under the others.

    Built here, the rows are built without the per-test fixtures (``_fresh_providers``…): with
    the test settings, and with the model weights this process already shares."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as monkeypatch:
        _share_local_model_weights(monkeypatch)
        around = transaction.atomic()
        around._from_testcase = True  # as a TestCase's own: a durable block inside is allowed
        around.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            around.__exit__(*sys.exc_info())
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            around.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _fresh_providers(monkeypatch):
    """Providers are built from settings once per process; tests that override settings get new ones."""
    from memory.providers import reset_providers

    _share_local_model_weights(monkeypatch)
    reset_providers()
    yield
    reset_providers()


# The local model as this process first loaded it: its ONNX Runtime session, or its weights.
_onnx_models: dict[tuple, Any] = {}
_model_weights: dict[tuple, Any] = {}


def _share_local_model_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's new local embedder loads its model as the server does (``LocalEmbedder.load``:
    settings, dimension check, ``loaded``), but is handed the session, or the PyTorch weights,
    that this process loaded first: loading them again took about a second, in each of hundreds
    of tests. Production loads them once per process too. sentence-transformers (which pulls in
    torch) is not imported for this: until a test imports it, there is nothing to share."""
    from memory.providers import embeddings

    load = embeddings.onnx_model_load

    def loaded(**options: Any) -> Any:
        key = tuple(sorted(options.items()))
        if key not in _onnx_models:
            _onnx_models[key] = load(**options)
        return _onnx_models[key]

    monkeypatch.setattr(embeddings, "onnx_model_load", loaded)
    library = sys.modules.get("sentence_transformers")
    if library is None:
        return
    read = library.SentenceTransformer

    def weights(*args: Any, **options: Any) -> Any:
        key = (args, tuple(sorted(options.items())))
        if key not in _model_weights:
            _model_weights[key] = read(*args, **options)
        return _model_weights[key]

    monkeypatch.setattr(library, "SentenceTransformer", weights)


def make_team() -> dict[str, Any]:
    """A workspace with a worker (the writer), a viewer, and an outsider."""
    workspace = make_workspace("team")
    writer, viewer, outsider = make_principal("writer"), make_principal("viewer"), make_principal("outsider")
    grant(writer, workspace, Role.WORKER)
    grant(viewer, workspace, Role.VIEWER)
    return {"workspace": workspace, "writer": writer.user, "viewer": viewer.user, "outsider": outsider.user}


def add_as_writer(
    team: dict[str, Any], message: str, *, actor=None, user_id: str = "bob", group_id: str = "team", **options
):
    """memory_add as the team's writer, with after-commit work (enrichment) run inline."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        arguments = tool_input(AddMemoryApi, user_id=user_id, message=message, group_id=group_id, **options)
        return memory_add(actor=actor or team["writer"], **arguments)


@pytest.fixture
def team(db):
    """A workspace with a worker (the writer), a viewer, and an outsider."""
    return make_team()


@pytest.fixture
def add(team):
    """memory_add as the team's writer, with after-commit work (enrichment) run inline."""
    return functools.partial(add_as_writer, team)


@pytest.fixture
def database_refusing_new_connections(transactional_db):
    """The test database refusing every new connection, as a server shutting down or out of
    connections does, while connections already open go on working. Switched from the
    maintenance database, so it is switched back even if every connection to this one is gone."""
    name = connection.settings_dict["NAME"]

    def allow(allowed: bool) -> None:
        params = {**connection.get_connection_params(), "dbname": "postgres", "autocommit": True}
        with contextlib.closing(psycopg.connect(**params)) as maintenance:
            statement = sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(sql.Identifier(name), allowed)
            maintenance.execute(statement)

    connection.ensure_connection()
    allow(False)
    try:
        yield allow
    finally:
        allow(True)


@pytest.fixture
def llm_server():
    """An OpenAI-compatible LLM over real HTTP on 127.0.0.1 (tests/openai_compatible_server.py),
    configured as the server's LLM; each test queues the answers it wants."""
    from memory.providers import reset_providers

    with (
        OpenAICompatibleServer() as server,
        override_settings(
            HELIX_LLM="openai",
            HELIX_LLM_BASE_URL=server.base_url,
            HELIX_LLM_MODEL="test-model",
            HELIX_LLM_MAX_RETRIES=0,
        ),
    ):
        reset_providers()
        yield server
    reset_providers()

"""mem0's real client against the live test server. The client reports usage to PostHog unless
``MEM0_TELEMETRY`` is false, and keeps a config file under ``MEM0_DIR`` (else ~/.mem0): both are
read when ``mem0`` is first imported, so they are set here, before any test module imports it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

import pytest

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="mem0-client-"))

from mem0 import MemoryClient  # noqa: E402  (after the environment it reads on import)

from rbac.models import Role  # noqa: E402
from tests.factories import grant, make_agent_with_token, make_principal, make_workspace  # noqa: E402


@dataclass
class Door:
    url: str  # the client's host: the live server's /mem0
    tokens: dict[str, str]  # persona → raw token

    def client(self, persona: str, *, url: str | None = None) -> MemoryClient:
        return MemoryClient(api_key=self.tokens[persona], host=url or self.url)


@pytest.fixture
def door(live_server, transactional_db) -> Door:
    """A writer and a viewer of the team workspace, an outsider writing in a workspace of its own,
    and an agent writing in both."""
    team, elsewhere = make_workspace("team"), make_workspace("elsewhere")
    tokens = {}
    for name, grants in (
        ("writer", [(team, Role.WORKER)]),
        ("viewer", [(team, Role.VIEWER)]),
        ("outsider", [(elsewhere, Role.WORKER)]),
        ("both", [(team, Role.WORKER), (elsewhere, Role.WORKER)]),
    ):
        principal, issued = make_agent_with_token(name)
        for workspace, role in grants:
            grant(principal, workspace, role)
        tokens[name] = issued.raw
    return Door(f"{live_server.url}/mem0", tokens)


@pytest.fixture
def client(door) -> Callable[[str], MemoryClient]:
    return door.client


@pytest.fixture
def importer(db):
    """The principal ``migrator``, a worker in workspace ``imported``, which an import names."""
    workspace = make_workspace("imported")
    principal = make_principal("migrator")
    grant(principal, workspace, Role.WORKER)
    return principal

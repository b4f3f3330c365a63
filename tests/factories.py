"""Test data builders, in one place."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from django.conf import settings
from django.db import OperationalError
from rest_framework.exceptions import ValidationError
from rest_framework.test import APIClient

from helixsite.agents.tool import ToolApi
from helixsite.errors import ApplicationError, validation_error
from memory.api.write import AddMemoryApi
from memory.ingest.atoms import content_key
from memory.models import Memory
from memory.providers import get_embedder
from rbac.models import Principal, Workspace
from rbac.policy import SYSTEM, WriteDomain, provenance_record
from rbac.services import IssuedToken, membership_grant, principal_create, token_issue, workspace_create

_counter = itertools.count(1)


def make_principal(username: str, *, kind: str = Principal.Kind.AGENT, admin: bool = False) -> Principal:
    return principal_create(username=username, kind=kind, is_global_admin=admin)


def make_agent_with_token(username: str, *, admin: bool = False) -> tuple[Principal, IssuedToken]:
    principal = make_principal(username, admin=admin)
    return principal, token_issue(user=principal.user, name="test")


@dataclass
class Caller:
    """An agent over HTTP: its name and a client holding its token."""

    name: str
    client: APIClient

    def call(self, tool: str, method: str = "post", **params: Any) -> Any:
        params.setdefault("actor_id", self.name)
        if method == "get":
            return self.client.get(f"/api/v1/{tool}", params)
        return self.client.post(f"/api/v1/{tool}", params, format="json")


def bearer_client(raw_token: str) -> APIClient:
    """An HTTP client that presents ``raw_token`` as its bearer credentials."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    return client


def make_workspace(slug: str) -> Workspace:
    return workspace_create(actor=SYSTEM, name=slug.replace("-", " ").title(), slug=slug)


def grant(principal: Principal, workspace: Workspace, role: str) -> None:
    membership_grant(actor=SYSTEM, workspace=workspace, user=principal.user, role=role)


def unit_vector(seed: int | None = None) -> list[float]:
    """A deterministic unit vector; for tests where similarity does not matter."""
    rng = np.random.default_rng(next(_counter) if seed is None else seed)
    vector = rng.normal(size=settings.HELIX_EMBEDDING_DIM)
    return (vector / np.linalg.norm(vector)).tolist()


def make_memories(texts: list[str], *, user_id: str, workspace_id: int, author, seed: int) -> list[Memory]:
    """Memories of ``user_id`` visible in one workspace, written at once (no provenance, no edges),
    each with a deterministic random vector (seeds from ``seed``): for tests of ranking by words."""
    return Memory.objects.bulk_create(
        Memory(
            content=text, content_key=f"{seed}-{n}", user_id=user_id, author=author, rbac_scope="default",
            visible_in=[workspace_id], embedding=unit_vector(seed + n),
        )
        for n, text in enumerate(texts)
    )  # fmt: skip


def make_memory(
    *, author: Principal, domain: WriteDomain, content: str, user_id: str = "alice", embed: bool = False, **fields
) -> Memory:
    """A memory stored in ``domain`` and made visible as the write path does it.

    ``embed=True`` gives it its real vector (for search tests); otherwise a random unit vector.
    """
    key = content_key(scope=domain.scope, memory_type=fields.get("memory_type", "fact"), content=content)
    vector = get_embedder().embed([content], purpose="test")[0].tolist() if embed else unit_vector()
    memory = Memory.objects.create(
        content=content,
        content_key=key,
        user_id=user_id,
        author=author.user,
        rbac_scope=domain.scope,
        visible_in=domain.visible_in,
        embedding=vector,
        **fields,
    )
    provenance_record(memory_ids=[memory.pk], domain=domain)
    return memory


def tool_input(tool: type[ToolApi], **arguments: Any) -> dict[str, Any]:
    """``arguments`` as the tool's door (its input serializer) passes them on to the service.
    What the door refuses is raised as the error the API answers with."""
    try:
        return tool.parse({"actor_id": "caller", **arguments})
    except ValidationError as exc:
        raise _as_api_error(exc) from None


def tool_call(tool: type[ToolApi], *, actor: Any, **arguments: Any) -> dict[str, Any]:
    """A tool exactly as an agent calls it over REST or MCP: the door (its input serializer), the
    actor check, then its service. What the door refuses is raised as the error the API answers with."""
    try:
        return tool.call(actor=actor, arguments={"actor_id": actor.get_username(), **arguments})
    except ValidationError as exc:
        raise _as_api_error(exc) from None


def add_memory_call(*, actor: Any, **arguments: Any) -> dict[str, Any]:
    """add_memory as agents call it: buffered when HELIX_ADD_BUFFERED is on, pending outcomes delivered."""
    return tool_call(AddMemoryApi, actor=actor, **arguments)


def _as_api_error(exc: ValidationError) -> ApplicationError:
    error = validation_error(exc.detail, exc.get_codes())["error"]
    return ApplicationError(error["message"], code=error["code"], field=error.get("field"), status=400)


def deadlock() -> OperationalError:
    """What a statement PostgreSQL ends in a deadlock raises through Django: its OperationalError,
    the driver's error as the cause (helixsite.db.conflicts.gave_way reads it)."""
    cause = psycopg.errors.DeadlockDetected("deadlock detected")
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error

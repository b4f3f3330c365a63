"""Test data builders, in one place."""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
from django.conf import settings

from memory.models import Memory
from rbac.models import Principal, Workspace
from rbac.policy import SYSTEM, WriteDomain, provenance_record
from rbac.services import IssuedToken, membership_grant, principal_create, token_issue, workspace_create

_counter = itertools.count(1)


def make_principal(username: str, *, kind: str = Principal.Kind.AGENT, admin: bool = False) -> Principal:
    return principal_create(username=username, kind=kind, is_global_admin=admin)


def make_agent_with_token(username: str, *, admin: bool = False) -> tuple[Principal, IssuedToken]:
    principal = make_principal(username, admin=admin)
    return principal, token_issue(user=principal.user, name="test")


def bearer_client(raw_token: str):  # noqa: ANN201 - a DRF APIClient
    """An HTTP client that presents ``raw_token`` as its bearer credentials."""
    from rest_framework.test import APIClient

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


def make_memory(
    *, author: Principal, domain: WriteDomain, content: str, user_id: str = "alice", embed: bool = False, **fields
) -> Memory:
    """A memory stored in ``domain`` and made visible as the write path does it.

    ``embed=True`` gives it its real vector (for search tests); otherwise a random unit vector.
    """
    from memory.providers import get_embedder

    key = hashlib.sha256(f"{domain.scope}|{fields.get('memory_type', 'fact')}|{content.lower()}".encode()).hexdigest()
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

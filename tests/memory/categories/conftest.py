"""Personas over HTTP: a team with a writer, a viewer and an outsider, a global admin, and a
second workspace whose memories (and categories) the team must never see."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memory.categories.services import memories_file
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_memory, make_workspace


@dataclass
class Filed:
    writer: Caller
    viewer: Caller
    outsider: Caller
    admin: Caller
    stranger: Caller
    ids: dict[str, str]


TEAM_MEMORIES = {
    "allergy": ("bob", "Bob is allergic to peanuts.", "preference"),
    "deploy": ("bob", "Bob deploys the staging cluster with Terraform.", "fact"),
    "dns": ("bob", "Bob moved the DNS servers to the new firewall.", "fact"),
    "ramen": ("carol", "Carol's favourite food is ramen.", "preference"),
}


@pytest.fixture
def filed(db) -> Filed:
    return _filed(embed=False)


@pytest.fixture
def filed_for_search(db) -> Filed:
    """The same, with the memories' real vectors."""
    return _filed(embed=True)


def _filed(*, embed: bool) -> Filed:
    team, other = make_workspace("team"), make_workspace("other")
    callers, principals = {}, {}
    for name, workspace, role in (
        ("writer", team, Role.WORKER),
        ("viewer", team, Role.VIEWER),
        ("outsider", None, None),
        ("root", None, None),
        ("stranger", other, Role.WORKER),
    ):
        principal, issued = make_agent_with_token(name, admin=name == "root")
        if workspace is not None:
            grant(principal, workspace, role)
        callers[name], principals[name] = Caller(name, bearer_client(issued.raw)), principal
    domain = write_domain_resolve(actor=principals["writer"].user, group_id="team")
    ids = {
        key: str(
            make_memory(
                author=principals["writer"], domain=domain, user_id=owner, content=text, memory_type=kind, embed=embed
            ).id
        )
        for key, (owner, text, kind) in TEAM_MEMORIES.items()
    }
    hidden = write_domain_resolve(actor=principals["stranger"].user, group_id="other")
    secret = make_memory(
        author=principals["stranger"],
        domain=hidden,
        user_id="bob",
        content="Bob plans a secret trip to Oslo.",
        embed=embed,
    )
    ids["secret"] = str(secret.id)
    memories_file(memory_ids=list(ids.values()))
    return Filed(callers["writer"], callers["viewer"], callers["outsider"], callers["root"], callers["stranger"], ids)

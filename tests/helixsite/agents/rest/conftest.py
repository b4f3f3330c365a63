"""Personas for the agent API: tokens for a writer, a viewer, an outsider and a global admin,
and one memory of bob's in the team workspace."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import override_settings

from memory.documents.services import DocumentInput, document_add
from memory.fastthink.services import think_conclude, think_start
from memory.models import Memory
from memory.services.add import memory_add
from rbac.models import Principal, Role
from rbac.policy import write_domain_resolve
from rbac.presence.services import agent_heartbeat
from tests.factories import (
    Caller,
    add_memory_call,
    bearer_client,
    grant,
    make_agent_with_token,
    make_memory,
    make_workspace,
)


@dataclass
class Agents:
    writer: Caller
    viewer: Caller
    outsider: Caller
    admin: Caller
    memory: Memory
    pending_id: str
    contradiction: tuple[str, str]  # (newer, older)
    document_id: str  # bob's runbook in the team workspace


@pytest.fixture
def agents(db) -> Agents:
    team = make_workspace("team")
    callers = {}
    for name, role in (("writer", Role.WORKER), ("viewer", Role.VIEWER), ("outsider", None), ("root", None)):
        principal, issued = make_agent_with_token(name, admin=name == "root")
        if role:
            grant(principal, team, role)
        callers[name] = Caller(name, bearer_client(issued.raw))
    writer = Principal.objects.get(user__username="writer")
    domain = write_domain_resolve(actor=writer.user, group_id="team")
    memory = make_memory(
        author=writer, domain=domain, user_id="bob", content="Bob deploys with helm-runner.", embed=True
    )
    # The writer is at work: one running instance, a session in progress and one decided.
    agent_heartbeat(actor=writer.user, agent_id="writer:main", status="deploying")
    think_start(actor=writer.user, session_id="plan", initial_thought="How does bob deploy?")
    think_start(actor=writer.user, session_id="decided", initial_thought="Is helm-runner the tool?")
    think_conclude(actor=writer.user, session_id="decided", conclusion="Bob's deploy tool is helm-runner.")
    # A buffered write still queued, and a contradiction waiting for review.
    with override_settings(HELIX_ADD_BUFFERED=True):
        pending = add_memory_call(actor=writer.user, user_id="bob", group_id="team", message="Bob uses Vim.")
    memory_add(actor=writer.user, user_id="bob", group_id="team", message="Bob lives in Osaka.")
    denial = memory_add(actor=writer.user, user_id="bob", group_id="team", message="Bob does not live in Osaka.")
    contradiction = (denial["memory_ids"][0], denial["contradicted"][0])
    runbook = DocumentInput(user_id="bob", title="Runbook", text="# Runbook\n\nBob deploys with helm-runner.")
    document = document_add(actor=writer.user, given=runbook, group_id="team").document
    return Agents(
        callers["writer"],
        callers["viewer"],
        callers["outsider"],
        callers["root"],
        memory,
        pending["pending_id"],
        contradiction,
        str(document.id),
    )

"""Personas for the document tools, over HTTP: a writer and a viewer of the crew workspace, a
moderator of it, a writer of another workspace, and an outsider."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import TestCase

from rbac.models import Role
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_workspace

RUNBOOK = """# Deploy runbook

Every deploy of the payments API goes through the canary first.
The canary takes five percent of the traffic for ten minutes.

## Rollback

When the error rate of the canary passes two percent, run the rollback:

```sh
helm rollback payments-api 0
kubectl rollout status deploy/payments-api
```

Then open an incident in the tracker and page the on-call engineer.

## Database migrations

Migrations run before the new pods start. A migration that locks a table for more
than a second needs a maintenance window approved by the database team.
"""


@dataclass
class Crew:
    writer: Caller
    viewer: Caller
    moderator: Caller
    stranger: Caller  # writes in another workspace
    outsider: Caller  # no role anywhere


def caller(name: str, *, admin: bool = False) -> tuple[Caller, object]:
    principal, token = make_agent_with_token(name, admin=admin)
    client = bearer_client(token.raw)
    client.defaults["HTTP_HOST"] = "127.0.0.1"
    return Caller(name, client), principal


@pytest.fixture
def crew(db) -> Crew:
    return make_crew()


def make_crew() -> Crew:
    crew_space, other_space = make_workspace("crew"), make_workspace("other")
    callers = {}
    for name, workspace, role in (
        ("writer", crew_space, Role.WORKER),
        ("viewer", crew_space, Role.VIEWER),
        ("moderator", crew_space, Role.MODERATOR),
        ("stranger", other_space, Role.WORKER),
        ("outsider", None, None),
    ):
        callers[name], principal = caller(name)
        if workspace is not None:
            grant(principal, workspace, role)
    return Crew(**callers)


def add_document(agent: Caller, *, expect: int = 200, **params) -> dict:
    """add_document's answer, once the worker has stored what it accepted: what the call queued
    for after its commit is run when it has answered (the test settings run a queued task in this
    process; what that task queues in turn is left, as a worker's own after-commit work, to a test
    that asks for it). ``accepted`` is the document as the call answered, ``document`` as
    get_document shows it after the worker."""
    params = {"user_id": "ada", "group_id": "crew", "title": "Deploy runbook", **params}
    if "text" not in params and "content_base64" not in params:
        params["text"] = RUNBOOK
    with TestCase.captureOnCommitCallbacks() as queued:
        response = agent.call("add_document", **params)
    assert response.status_code == expect, response.json()
    for callback in queued:
        callback()
    answer = response.json()
    if response.status_code != 200:
        return answer
    stored = agent.call("get_document", document_id=answer["document"]["id"], limit=1)
    assert stored.status_code == 200, stored.json()
    return {**answer, "accepted": answer["document"], "document": stored.json()["document"]}


def chunks_of(agent: Caller, document_id: str) -> list[dict]:
    response = agent.call("get_document", document_id=document_id)
    assert response.status_code == 200, response.json()
    return response.json()["chunks"]

"""Presence personas: two co-workers, an outsider in another workspace, a global admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rbac.models import Role
from rbac.presence.models import AgentInstance
from tests.factories import grant, make_principal, make_workspace


@pytest.fixture
def crew(db):
    team, elsewhere = make_workspace("team"), make_workspace("elsewhere")
    ann, ben, out = make_principal("ann"), make_principal("ben"), make_principal("out")
    root = make_principal("root", admin=True)
    grant(ann, team, Role.WORKER)
    grant(ben, team, Role.VIEWER)
    grant(out, elsewhere, Role.WORKER)
    return {"ann": ann.user, "ben": ben.user, "out": out.user, "root": root.user}


def age(user, agent_id: str, *, seconds: float) -> None:
    """Pretend ``agent_id`` was last seen ``seconds`` ago (instead of sleeping)."""
    moment = timezone.now() - timedelta(seconds=seconds)
    AgentInstance.objects.filter(user=user, agent_id=agent_id).update(last_seen=moment, first_seen=moment)


def instance(user, agent_id: str) -> AgentInstance:
    return AgentInstance.objects.get(user=user, agent_id=agent_id)

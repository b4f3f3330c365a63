"""Django admin shows instances for inspection and offers no way to edit them."""

from __future__ import annotations

from django.urls import reverse

from rbac.presence.services import agent_farewell, agent_heartbeat
from tests.rbac.presence.conftest import instance


def test_a_global_admin_can_inspect_instances_but_not_change_them(client, crew):
    agent_heartbeat(actor=crew["ann"], agent_id="main", status="indexing the wiki")
    agent_heartbeat(actor=crew["ann"], agent_id="main/a", parent_agent_id="main")
    agent_farewell(actor=crew["ann"], agent_id="main")
    client.force_login(crew["root"])

    listing = client.get(reverse("admin:presence_agentinstance_changelist")).content.decode()
    detail = client.get(reverse("admin:presence_agentinstance_change", args=[instance(crew["ann"], "main/a").pk]))

    assert "indexing the wiki" in listing and "main/a" in listing
    assert (
        detail.status_code == 200
        and "main/a of ann" in detail.content.decode()
        and "its parent ended" in detail.content.decode()
    )
    assert 'name="_save"' not in detail.content.decode()

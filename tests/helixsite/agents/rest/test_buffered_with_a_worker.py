"""A buffered add_memory over HTTP, finished by a real django-q2 worker process."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django_q.conf import Conf

from helixsite.client import Helixsite
from rbac.models import Role
from tests.factories import grant, make_agent_with_token, make_workspace
from tests.stewardship.test_worker import wait_for, worker  # noqa: F401 - the worker fixture

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@override_settings(HELIX_ADD_BUFFERED=True)
def test_accepted_then_done_by_the_worker_then_delivered_once(live_server, worker, monkeypatch):  # noqa: F811
    monkeypatch.setattr(Conf, "SYNC", False)  # tasks go to the queue, as in production
    principal, issued = make_agent_with_token("codex")
    grant(principal, make_workspace("team"), Role.WORKER)
    helix = Helixsite(live_server.url, token=issued.raw, actor_id="codex")

    accepted = helix.add_memory(user_id="alice", message="Alice keeps the spare keys in the blue drawer.")
    done = wait_for(
        lambda: (s := helix.get_add_status(pending_id=accepted["pending_id"]))["status"] == "done" and s, timeout=90
    )
    next_add = helix.add_memory(user_id="alice", message="Alice's bike is a green Brompton.")
    third_add = helix.add_memory(user_id="alice", message="Alice waters the ferns on Sundays.")
    found = helix.search_memory(user_id="alice", query="where are the spare keys")

    assert accepted["status"] == "accepted" and accepted["pending_outcomes"] == []
    assert done, "the worker did not finish the write"
    memory_id = done["result"]["memory_ids"][0]
    delivered = [o for o in next_add["pending_outcomes"] if o["pending_id"] == accepted["pending_id"]]
    assert [(o["kind"], o["status"]) for o in delivered] == [("add_outcome", "done")]
    assert accepted["pending_id"] not in [o.get("pending_id") for o in third_add["pending_outcomes"]]
    assert found["results"][0]["id"] == memory_id

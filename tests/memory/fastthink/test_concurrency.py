"""Concurrent calls on one session (as from several web workers) take turns."""

from __future__ import annotations

import pytest

from helixsite.errors import ApplicationError
from memory.fastthink.selectors import think_status
from memory.fastthink.services import think_add, think_start
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace
from tests.threads import run_together


@pytest.fixture
def thinker(transactional_db):
    principal = make_principal("thinker")
    grant(principal, make_workspace("team"), Role.WORKER)
    return principal.user


def test_concurrent_thoughts_get_distinct_indices(thinker):
    think_start(actor=thinker, session_id="s", initial_thought="Start.")

    results = run_together(
        [lambda n=n: think_add(actor=thinker, session_id="s", content=f"Thought {n}.") for n in range(6)]
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(r["thought"]["idx"] for r in results) == [1, 2, 3, 4, 5, 6]
    status = think_status(actor=thinker, session_id="s")
    assert status["session"]["thought_count"] == 7
    assert sorted(t["content"] for t in status["thoughts"][1:]) == [f"Thought {n}." for n in range(6)]


def test_concurrent_starts_of_one_session_id_make_one_session(thinker):
    results = run_together(
        [lambda n=n: think_start(actor=thinker, session_id="s", initial_thought=f"Start {n}.") for n in range(4)]
    )

    started = [r for r in results if isinstance(r, dict)]
    refused = [r for r in results if isinstance(r, ApplicationError)]
    assert len(started) == 1 and [e.code for e in refused] == ["session_exists"] * 3
    assert think_status(actor=thinker, session_id="s")["session"]["thought_count"] == 1

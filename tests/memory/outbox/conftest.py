"""The agent-level add as the team's writer, with after-commit work captured or run inline."""

from __future__ import annotations

import pytest

from tests.factories import add_memory_call


@pytest.fixture
def submit(team, django_capture_on_commit_callbacks):
    """``submit(message)`` runs the worker's half inline; ``run=False`` leaves it queued and
    returns ``(result, callbacks)`` so a test can look before it runs."""

    def _submit(message: str, *, actor=None, user_id: str = "bob", group_id: str = "team", run: bool = True, **options):
        with django_capture_on_commit_callbacks(execute=run) as callbacks:
            result = add_memory_call(
                actor=actor or team["writer"], user_id=user_id, message=message, group_id=group_id, **options
            )
        return result if run else (result, callbacks)

    return _submit


@pytest.fixture
def run_callbacks(django_capture_on_commit_callbacks):
    """Run captured after-commit callbacks (the enqueued task) and whatever they enqueue in turn."""

    def _run(callbacks: list) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            for callback in callbacks:
                callback()

    return _run


@pytest.fixture
def buffered(settings):
    settings.HELIX_ADD_BUFFERED = True

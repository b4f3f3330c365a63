"""Personas and helpers for the memory tests."""

from __future__ import annotations

import pytest

from memory.services import memory_add
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace


@pytest.fixture
def team(db):
    """A workspace with a worker (the writer), a viewer, and an outsider."""
    workspace = make_workspace("team")
    writer, viewer, outsider = make_principal("writer"), make_principal("viewer"), make_principal("outsider")
    grant(writer, workspace, Role.WORKER)
    grant(viewer, workspace, Role.VIEWER)
    return {"workspace": workspace, "writer": writer.user, "viewer": viewer.user, "outsider": outsider.user}


@pytest.fixture
def add(team, django_capture_on_commit_callbacks):
    """memory_add as the team's writer, with after-commit work (enrichment) run inline."""

    def _add(message: str, *, actor=None, user_id: str = "bob", group_id: str = "team", **options):  # noqa: ANN001, ANN202
        with django_capture_on_commit_callbacks(execute=True):
            return memory_add(
                actor=actor or team["writer"], user_id=user_id, message=message, group_id=group_id, **options
            )

    return _add

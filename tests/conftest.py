"""Shared fixtures. The suite runs against the real embedded PostgreSQL (or DATABASE_URL)."""

from __future__ import annotations

import os

import pytest

from helixsite import embedded_db

_embedded_was_running: bool | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _embedded_was_running
    if embedded_db.uses_embedded():
        from django.conf import settings

        _embedded_was_running = embedded_db.status(settings.HELIX_DATA_DIR).running


def pytest_unconfigure(config: pytest.Config) -> None:
    """A server the test run had to start is stopped again at the end."""
    if _embedded_was_running is False and not os.environ.get("HELIX_KEEP_DB"):
        from django.conf import settings

        embedded_db.stop(settings.HELIX_DATA_DIR)


@pytest.fixture(autouse=True)
def _fresh_providers():
    """Providers are built from settings once per process; tests that override settings get new ones."""
    from memory.providers import reset_providers

    reset_providers()
    yield
    reset_providers()

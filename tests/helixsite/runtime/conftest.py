"""The runtime layer in a test's own process: what a test applies is undone after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from helixsite.runtime.reload import runtime_reset


@pytest.fixture(autouse=True)
def startup_config_again() -> Iterator[None]:
    yield
    runtime_reset()


@pytest.fixture
def credentials_key(settings, tmp_path) -> None:
    """A data dir of the test's own, where the credentials key file is created."""
    settings.HELIX_DATA_DIR = tmp_path
    settings.HELIX_CREDENTIALS_KEY = None

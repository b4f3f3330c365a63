"""The vault in tests: backups go to a directory of the test's own. Backups run pg_dump in
another session, which sees committed rows only: vault tests use ``transactional_db``."""

from __future__ import annotations

import pytest

from rbac.models import Principal
from tests.factories import make_principal


@pytest.fixture(autouse=True)
def vault_in_tmp(settings, tmp_path):
    settings.HELIX_BACKUP_DIR = tmp_path / "backups"
    return settings.HELIX_BACKUP_DIR


@pytest.fixture
def ada(transactional_db) -> Principal:
    return make_principal("ada", kind=Principal.Kind.HUMAN, admin=True)

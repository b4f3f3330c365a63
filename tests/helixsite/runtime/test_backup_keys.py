"""The backup schedule and its retention are changed from the room like any allowlisted key, and
the vault's hourly check reads the patched values."""

from __future__ import annotations

import pytest
from django.conf import settings

from helixsite.errors import ApplicationError
from helixsite.runtime.allowlist import key_named

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("key", "raw", "value"), [("HELIX_BACKUP_INTERVAL_HOURS", "6", 6.0), ("HELIX_BACKUP_KEEP", "14", 14)]
)
def test_the_backup_schedule_and_retention_are_patchable(key, raw, value):
    assert key_named(key).parse(raw) == value
    assert type(getattr(settings, key)) is type(value)


@pytest.mark.parametrize(("key", "raw"), [("HELIX_BACKUP_INTERVAL_HOURS", "-1"), ("HELIX_BACKUP_KEEP", "0")])
def test_a_bad_backup_value_is_refused_naming_the_key(key, raw):
    with pytest.raises(ApplicationError) as refused:
        key_named(key).parse(raw)
    assert refused.value.field == key

"""A message that denies a value with a verb in its base form ("does not run") is stored like any
other: the value reading once raised on it, and the message was lost with its run."""

from __future__ import annotations

import pytest

from memory.models import Memory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("extract", [True, False])
def test_a_message_denying_a_value_is_stored(add, extract):
    answer = add("The nightly backup does not run on Sundays.", extract=extract)

    assert answer["ok"] and answer["memory_ids"]
    assert Memory.objects.filter(id__in=answer["memory_ids"], content__icontains="backup").exists()

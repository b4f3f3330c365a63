"""Ids sent as one array literal come back as the ids they were (helixsite.db.arrays)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from helixsite.db.arrays import uuid_array

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("count", [0, 1, 300])
def test_ids_read_back_as_the_same_ids_in_the_same_order(count):
    ids = [uuid.uuid4() for _ in range(count)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::uuid[]", [uuid_array(ids)])
        assert cursor.fetchone()[0] == ids


def test_anything_but_a_uuid_is_refused_before_it_reaches_the_literal():
    with pytest.raises(TypeError):
        uuid_array([uuid.uuid4(), "}, {evil"])

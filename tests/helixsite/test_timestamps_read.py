"""Every timestamp the database holds is read back as the moment it is, in UTC, to the
microsecond, by the ORM and by raw SQL alike (helixsite.db's loader parses them in C)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import connection

from memory.models import Memory

MOMENTS = [
    datetime(1, 1, 1, tzinfo=UTC),
    datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    datetime(2024, 2, 29, 12, 30, 0, 1, tzinfo=UTC),
    datetime(2024, 3, 31, 1, 30, tzinfo=timezone(timedelta(hours=-9, minutes=-30))),
    datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
]


@pytest.mark.django_db
@pytest.mark.parametrize("moment", MOMENTS, ids=str)
def test_a_timestamp_is_read_back_as_the_moment_written(moment, add):
    said = add("I planted the tomatoes.", extract=False)
    Memory.objects.filter(id=said["memory_ids"][0]).update(valid_from=moment)

    read = Memory.objects.get(id=said["memory_ids"][0]).valid_from
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT valid_from, %s::timestamptz FROM memory_memory WHERE id = %s", [moment, said["memory_ids"][0]]
        )
        raw, echoed = cursor.fetchone()

    assert read == raw == echoed == moment
    assert read.tzinfo is UTC and raw.tzinfo is UTC and read.microsecond == moment.microsecond


@pytest.mark.django_db
def test_a_timestamp_given_with_an_offset_is_read_in_utc():
    with connection.cursor() as cursor:
        cursor.execute("SELECT '2024-03-01 12:00:00.25+05:30'::timestamptz, NULL::timestamptz")
        moment, nothing = cursor.fetchone()

    assert moment == datetime(2024, 3, 1, 6, 30, 0, 250000, tzinfo=UTC)
    assert moment.utcoffset() == timedelta(0) and nothing is None

"""Where a memory's vector is stored: in its row, so a search scoring candidates reads no TOAST
table (memory migration 0015); only a row too long for that moves values out, its text first."""

from __future__ import annotations

import pytest
from django.db import connection

from memory.models import Memory

pytestmark = pytest.mark.django_db


def out_of_line(table: str, column: str, row_id) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_column_toast_chunk_id({column}) IS NOT NULL FROM {table} WHERE id = %s", [row_id])
        return cursor.fetchone()[0]


def test_a_memory_keeps_its_vector_in_its_row(add):
    message = "Bob moved from Lisbon to Porto in March to lead the new data platform team at the harbour office."
    add(message)
    memory = Memory.objects.get(content__contains="Porto")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_column_size(m.*) FROM memory_memory m WHERE id = %s", [memory.id])
        row_bytes = cursor.fetchone()[0]

    assert row_bytes > 2032, "a row past PostgreSQL's default 2 kB threshold, which would move its vector out"
    assert not out_of_line("memory_memory", "embedding", memory.id)
    assert not out_of_line("memory_memory", "search_vector", memory.id)


def test_a_long_memory_moves_its_text_out_before_its_vector(add):
    add("Bob keeps a long log. " + " ".join(f"entry {n} about the quarterly figures {n * 7}" for n in range(400)))
    memory = Memory.objects.get(content__startswith="Bob keeps a long log")

    assert not out_of_line("memory_memory", "embedding", memory.id)
    assert Memory.objects.get(pk=memory.pk).content == memory.content, "the text reads back whole"

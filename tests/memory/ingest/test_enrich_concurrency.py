"""Two workers enriching one owner's writes side by side: an entity the other is embedding is left
to it, so neither waits on the other's row locks (two waiting in opposite orders would deadlock,
and the task that lost would wait for its retry)."""

from __future__ import annotations

import contextlib

import psycopg
import pytest
from django.db import connection

from memory.ingest.enrich import enrich_runs
from memory.models import Entity, IngestRun
from tests.conftest import add_as_writer

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_entity_another_worker_holds_is_left_to_it_without_waiting(team):
    added = add_as_writer(team, "Bob met Alice Smith at the Gulbenkian Museum in Lisbon.", extract=False)
    mentioned = Entity.objects.filter(mentions__memory_id__in=added["memory_ids"]).distinct()
    assert mentioned.count() >= 2
    mentioned.update(embedding=None)
    held = mentioned.order_by("id").first()

    params = {**connection.get_connection_params(), "autocommit": False}
    with contextlib.closing(psycopg.connect(**params)) as other:
        other.execute("SELECT id FROM memory_entity WHERE id = %s FOR UPDATE", [held.id])  # the other worker
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '5s'")  # waiting on it fails the test instead of hanging it
        try:
            enrich_runs(run_ids=[IngestRun.objects.get(pk=added["run_id"]).id])
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
        other.rollback()

    assert Entity.objects.get(pk=held.pk).embedding is None, "left to the worker that holds it"
    assert all(e.embedding is not None for e in mentioned.exclude(pk=held.pk))

"""Two workers enriching one owner's writes side by side: an entity the other is embedding is left
to it, so neither waits on the other's row locks; and a transaction PostgreSQL chose to give way
in a deadlock all the same is run again at once, not left minutes for the queue's retry."""

from __future__ import annotations

import contextlib
import uuid

import psycopg
import pytest
from django.db import OperationalError, connection

from memory import tasks
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


def _failing(times: int, cause: Exception):
    calls = []

    def enrich(*, run_ids):
        calls.append(run_ids)
        if len(calls) <= times:
            error = OperationalError(str(cause))
            error.__cause__ = cause
            raise error

    return enrich, calls


def test_an_enrichment_that_gave_way_in_a_deadlock_runs_again_at_once(monkeypatch):
    enrich, calls = _failing(2, psycopg.errors.DeadlockDetected("deadlock detected"))
    monkeypatch.setattr(tasks, "enrich_runs", enrich)
    monkeypatch.setattr(tasks.conflicts, "PAUSE_SECONDS", 0)

    tasks.memory_enrich(str(uuid.uuid4()))

    assert len(calls) == 3


def test_any_other_failure_is_left_to_the_queue(monkeypatch):
    enrich, calls = _failing(1, psycopg.errors.UniqueViolation("duplicate key"))
    monkeypatch.setattr(tasks, "enrich_runs", enrich)

    with pytest.raises(OperationalError):
        tasks.memory_enrich(str(uuid.uuid4()))
    assert len(calls) == 1

"""Concurrent add_memory calls: identical ones store one memory, different ones never deadlock, an
entity another write makes meanwhile is linked; two conversations, or an import and a conversation,
that meet in a deadlock both stand."""

from __future__ import annotations

import logging
import threading
import time
import uuid

import pytest
from django.db import connection, transaction

from helixsite.db import conflicts
from helixsite.errors import ApplicationError
from memory.ingest import conductor
from memory.ingest.bulk import ImportReport, ImportRow, import_rows
from memory.ingest.english.entities import find_entities
from memory.ingest.exchange import Turn
from memory.models import CorpusTerm, CorpusTermDelta, Entity, IngestRun, Memory, Mention
from memory.providers import get_embedder
from memory.search.corpus import corpus_fold
from memory.services.add import memory_add, memory_add_conversation
from rbac.models import Role, Workspace
from tests.factories import deadlock, grant, make_principal, make_workspace
from tests.threads import run_together


@pytest.fixture
def writer(transactional_db):
    get_embedder().embed(["warm up"], purpose="test")  # load the model before the race
    workspace = make_workspace("team")
    principal = make_principal("writer")
    grant(principal, workspace, Role.WORKER)
    return principal.user


@pytest.mark.slow
def test_identical_concurrent_calls_store_one_memory(writer):
    call = lambda: memory_add(actor=writer, user_id="bob", message="I live in Paris. I have a cat.", group_id="team")  # noqa: E731

    results = run_together([call] * 4)

    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(Memory.objects.values_list("content", flat=True)) == ["bob has a cat.", "bob lives in Paris."]
    assert sum(len(r["memory_ids"]) for r in results) == 2


@pytest.mark.slow
def test_different_concurrent_writes_all_succeed(writer):
    messages = [f"Service {n} listens on port {8000 + n}. Its owner is team {n}." for n in range(6)]
    calls = [
        lambda m=m, u=u: memory_add(actor=writer, user_id=u, message=m, group_id="team")
        for m in messages
        for u in ("bob", "carol")
    ]

    results = run_together(calls)

    assert not [r for r in results if isinstance(r, Exception)], results
    assert Memory.objects.count() == 24


@pytest.mark.slow
def test_concurrent_writes_and_folds_keep_the_search_statistics_exact(writer):
    adds = [
        lambda n=n: memory_add(
            actor=writer, user_id=f"owner{n}", message=f"Rack {n} holds the router.", group_id="team"
        )
        for n in range(8)
    ]

    results = run_together([*adds, corpus_fold, corpus_fold, *adds[:2]])

    assert not [r for r in results if isinstance(r, Exception)], results
    corpus_fold()
    assert not CorpusTermDelta.objects.exists()
    counted = {row.term: row.documents for row in CorpusTerm.objects.filter(corpus="memory")}
    assert counted["rack"] == counted["router"] == Memory.objects.count() == counted[""] > 0


@pytest.mark.slow
def test_an_entity_another_write_makes_meanwhile_is_linked_all_the_same(writer):
    """The write that links a memory's entities waits on another transaction making one of them;
    once that one commits, the entity is linked though the waiting statement could not see it."""
    message = "Priya Raman reviews every deploy."
    (entity,) = find_entities(message, subject="bob")
    scope = f"rbac:group:{Workspace.objects.get(slug='team').id}"
    made = threading.Event()

    def another_write() -> None:
        with transaction.atomic():
            Entity.objects.create(
                name=entity.name, normalized_name=entity.normalized, entity_type=entity.entity_type, rbac_scope=scope
            )
            made.set()
            deadline = time.monotonic() + 120
            while not _a_statement_waits_on_a_lock():  # the add's link, on this uncommitted row
                assert time.monotonic() < deadline, "the add never waited on the entity"
                time.sleep(0.05)

    def add() -> dict:
        assert made.wait(120)
        return memory_add(actor=writer, user_id="bob", message=message, group_id="team")

    results = run_together([another_write, add])

    assert not [r for r in results if isinstance(r, Exception)], results
    (stored,) = Entity.objects.filter(rbac_scope=scope, normalized_name=entity.normalized)
    assert list(Mention.objects.filter(entity=stored).values_list("memory_id", flat=True)) == [
        uuid.UUID(results[1]["memory_ids"][0])
    ]


def _a_statement_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # read afresh inside the open transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.slow
def test_two_conversations_naming_the_same_people_in_turn_both_stand(writer, monkeypatch, caplog):
    """Two add_conversation calls into one workspace, each a message ahead of the other: each call's
    first message makes an entity the other's second message names, so each waits on the other's
    uncommitted row and PostgreSQL ends one of them in a deadlock. That message is written again
    once the messages before it are committed; both calls stand, and each person is one entity."""
    first_written = threading.Barrier(2)
    passes = threading.local()
    write = conductor._write_stages

    def in_step(*args, **kwargs):
        result = write(*args, **kwargs)
        passes.count = getattr(passes, "count", 0) + 1
        if passes.count == 1:  # both calls hold their first message's entities before either goes on
            first_written.wait(timeout=120)
        return result

    monkeypatch.setattr(conductor, "_write_stages", in_step)

    def call(owner: str, messages: list[str]) -> dict:
        turns = [Turn(message=m, role="user") for m in messages]
        return memory_add_conversation(actor=writer, user_id=owner, messages=turns, group_id="team", extract=False)

    with caplog.at_level(logging.WARNING, logger="memory.ingest.conductor"):
        results = run_together(
            [
                lambda: call("bob", ["Priya Raman reviews the budget.", "Tomasz Kowalczyk signs the contracts."]),
                lambda: call("carol", ["Tomasz Kowalczyk approves the hires.", "Priya Raman runs the standup."]),
            ]
        )

    assert not [r for r in results if isinstance(r, Exception)], results
    assert "gave way in a deadlock" in caplog.text, "the two calls never met in a deadlock"
    assert [len(r["results"]) for r in results] == [2, 2]
    assert Memory.objects.filter(user_id="bob").count() == Memory.objects.filter(user_id="carol").count() == 2
    for name in ("Priya Raman", "Tomasz Kowalczyk"):
        (person,) = Entity.objects.filter(name=name)
        assert set(person.mentions.values_list("memory__user_id", flat=True)) == {"bob", "carol"}


def test_a_message_that_gives_way_at_every_attempt_is_refused_as_a_conflict(writer, monkeypatch):
    write = conductor._write_stages
    attempts = []

    def deadlocked(message, *args, **kwargs):
        if "contracts" in message.request.message:
            attempts.append(message.request.message)
            raise deadlock()
        return write(message, *args, **kwargs)

    monkeypatch.setattr(conductor, "_write_stages", deadlocked)
    monkeypatch.setattr(conductor.conflicts, "PAUSE_SECONDS", 0)
    said = ["Priya Raman reviews the budget.", "Tomasz Kowalczyk signs the contracts.", "Ana Silva hires."]

    with pytest.raises(ApplicationError) as refused:
        memory_add_conversation(
            actor=writer,
            user_id="bob",
            messages=[Turn(message=m, role="user") for m in said],
            group_id="team",
            extract=False,
        )

    assert (refused.value.status, refused.value.code, refused.value.field) == (409, "write_conflict", "messages[1]")
    assert len(attempts) == conflicts.ATTEMPTS
    assert [len(r["memory_ids"]) for r in refused.value.details["written"]] == [1]
    assert list(Memory.objects.filter(user_id="bob").values_list("content", flat=True)) == [said[0]]
    runs = IngestRun.objects.filter(message__in=said)
    assert sorted(runs.values_list("error_code", flat=True)) == ["", "not_run", "write_conflict"]


@pytest.mark.slow
def test_an_import_batch_and_a_conversation_naming_the_same_people_in_turn_both_stand(writer, monkeypatch, caplog):
    """import_jsonl beside a live conversation in one workspace: the conversation's first message
    makes one person's entity, the import's batch makes the other's (the entities in name order)
    then waits on the first, and the conversation's second message names the other: PostgreSQL ends
    the import's batch in a deadlock. It is run again once the conversation commits; both stand."""
    first_written = threading.Event()
    passes = threading.local()
    write = conductor._write_stages

    def in_step(*args, **kwargs):
        result = write(*args, **kwargs)
        passes.count = getattr(passes, "count", 0) + 1
        if passes.count == 1:  # the conversation holds Tomasz; the import takes Priya and waits on him
            first_written.set()
            deadline = time.monotonic() + 120
            while not _a_statement_waits_on_a_lock():
                assert time.monotonic() < deadline, "the import never waited on the conversation's entity"
                time.sleep(0.05)
        return result

    monkeypatch.setattr(conductor, "_write_stages", in_step)
    said = ["Tomasz Kowalczyk signs the contracts.", "Priya Raman runs the standup."]
    rows = [
        ImportRow(n, "dave", text, "fact", "team", {}, None, "")
        for n, text in enumerate(["Priya Raman reviews the budget.", "Tomasz Kowalczyk approves the hires."], 1)
    ]

    def conversation() -> dict:
        turns = [Turn(message=m, role="user") for m in said]
        return memory_add_conversation(actor=writer, user_id="bob", messages=turns, group_id="team", extract=False)

    def load() -> ImportReport:
        assert first_written.wait(120)
        return import_rows(actor=writer, rows=rows, batch_size=10, rebuild_index="never")

    with caplog.at_level(logging.WARNING, logger="helixsite.db.conflicts"):
        results = run_together([conversation, load])

    assert not [r for r in results if isinstance(r, Exception)], results
    assert "The import's batch from line 1 gave way in a deadlock" in caplog.text, "the two never met in a deadlock"
    assert (results[1].stored, results[1].errors) == (2, [])
    assert [len(r["memory_ids"]) for r in results[0]["results"]] == [1, 1]
    for name in ("Priya Raman", "Tomasz Kowalczyk"):
        (person,) = Entity.objects.filter(name=name)
        assert set(person.mentions.values_list("memory__user_id", flat=True)) == {"bob", "dave"}

"""add_memory with HELIX_ADD_BUFFERED on: accepted, run by the worker, polled, delivered once."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from helixsite.db import conflicts
from helixsite.errors import ApplicationError, NotFound
from memory.ingest import conductor
from memory.models import IngestRun, Memory
from memory.outbox.models import Notice, PendingInput
from memory.outbox.selectors import add_status_get
from memory.providers import reset_providers
from memory.services.add import pending_add_run
from tests.factories import add_memory_call, deadlock, make_principal

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("buffered")]


def test_a_buffered_add_is_accepted_runs_on_the_worker_and_its_outcome_arrives_once(submit, run_callbacks, team):
    accepted, enqueued = submit("I live in Lisbon.", run=False)

    assert accepted == {"ok": True, "status": "accepted", "pending_id": accepted["pending_id"], "pending_outcomes": []}
    assert Memory.objects.count() == 0
    assert add_status_get(actor=team["writer"], pending_id=accepted["pending_id"])["status"] == "queued"

    run_callbacks(enqueued)

    status = add_status_get(actor=team["writer"], pending_id=accepted["pending_id"])
    assert status["status"] == "done" and status["group_id"] == "team"
    stored = Memory.objects.get(pk=status["result"]["memory_ids"][0])
    assert (stored.content, stored.author, stored.user_id) == ("bob lives in Lisbon.", team["writer"], "bob")

    later = submit("I work as a nurse.")
    outcomes = json.loads(json.dumps(later))["pending_outcomes"]
    assert [(o["kind"], o["pending_id"], o["status"]) for o in outcomes] == [
        ("add_outcome", accepted["pending_id"], "done")
    ]
    assert outcomes[0]["result"]["memory_ids"] == [str(stored.id)]
    third = submit("I have a cat named Miso.")  # the first outcome is not delivered again; the second's is
    assert [o["pending_id"] for o in third["pending_outcomes"]] == [later["pending_id"]]


def test_bad_input_and_refusals_answer_at_once_and_store_nothing(team):
    def code_of(**call) -> tuple[int, str, str | None]:
        with pytest.raises(ApplicationError) as caught:
            add_memory_call(**{"actor": team["writer"], "user_id": "bob", "group_id": "team", **call})
        return caught.value.status, caught.value.code, caught.value.field

    assert code_of(message="   ") == (400, "empty_message", "message")
    assert code_of(message="hi", metadata=["not", "an", "object"]) == (400, "not_a_dict", "metadata")
    assert code_of(message="I live in Paris.", actor=team["viewer"]) == (403, "forbidden", None)
    assert code_of(message="I live in Paris.", actor=team["outsider"]) == (404, "not_found", "group_id")
    assert PendingInput.objects.count() == 0 and Memory.objects.count() == 0


def test_add_status_answers_the_creator_the_owner_and_an_admin_only(submit, team):
    accepted, _ = submit("I live in Lisbon.", run=False)
    pending_id = accepted["pending_id"]
    owner = make_principal("bob").user  # the principal the write is about, with no role anywhere
    admin = make_principal("root", admin=True).user

    assert add_status_get(actor=owner, pending_id=pending_id)["status"] == "queued"
    assert add_status_get(actor=admin, pending_id=pending_id)["user_id"] == "bob"
    for stranger in (team["outsider"], team["viewer"]):
        with pytest.raises(NotFound) as refused:
            add_status_get(actor=stranger, pending_id=pending_id)
        with pytest.raises(NotFound) as missing:
            add_status_get(actor=stranger, pending_id=str(uuid.uuid4()))
        assert refused.value.as_dict() == missing.value.as_dict()
        assert refused.value.as_dict()["error"]["field"] == "pending_id"


def test_a_failed_buffered_write_is_reported_failed_and_raises_an_ops_alert(submit, run_callbacks, team):
    admin = make_principal("root", admin=True).user
    accepted, enqueued = submit("I live in Lisbon.", run=False)
    with override_settings(
        HELIX_EMBEDDINGS="openai", HELIX_EMBEDDING_BASE_URL="http://127.0.0.1:9/v1", HELIX_EMBEDDING_MAX_RETRIES=0
    ):
        reset_providers()
        run_callbacks(enqueued)
    reset_providers()

    status = add_status_get(actor=team["writer"], pending_id=accepted["pending_id"])
    assert status["status"] == "failed"
    assert status["error"]["code"] == "embedding_unavailable"
    assert Memory.objects.count() == 0
    assert IngestRun.objects.get().error_code == "embedding_unavailable"  # the failed run stays in the run log
    alerts = Notice.objects.filter(kind="ops_alert")
    assert sorted(a.recipient.username for a in alerts) == ["root", "writer"]

    outcomes = submit("I work as a nurse.")["pending_outcomes"]
    assert [(o["kind"], o.get("status"), o.get("alert")) for o in outcomes] == [
        ("add_outcome", "failed", None),
        ("ops_alert", None, "buffered_write_failed"),
    ]
    assert outcomes[1]["pending_id"] == accepted["pending_id"]
    assert outcomes[1]["error"]["code"] == "embedding_unavailable"
    assert (
        add_memory_call(actor=admin, user_id="bob", message="I like tea.", group_id="team")["pending_outcomes"][0][
            "alert"
        ]
        == "buffered_write_failed"
    )


def test_a_retried_task_never_writes_twice(submit, run_callbacks, team):
    accepted, enqueued = submit("I live in Lisbon.", run=False)
    run_callbacks(enqueued)
    finished = PendingInput.objects.get(pk=accepted["pending_id"])

    pending_add_run(pending_id=accepted["pending_id"])  # the broker delivers the task again

    again = PendingInput.objects.get(pk=accepted["pending_id"])
    assert Memory.objects.filter(content="bob lives in Lisbon.").count() == 1
    assert (again.attempts, again.finished_at, again.result) == (1, finished.finished_at, finished.result)


def test_a_write_whose_worker_died_is_taken_over_by_the_retry_a_running_one_is_not(submit, team, settings):
    accepted, _ = submit("I live in Lisbon.", run=False)
    running = PendingInput.objects.filter(pk=accepted["pending_id"])
    running.update(status="running", started_at=timezone.now())

    pending_add_run(pending_id=accepted["pending_id"])
    assert (running.get().status, Memory.objects.count()) == ("running", 0)

    running.update(started_at=timezone.now() - timedelta(seconds=settings.HELIX_TASK_TIMEOUT + 1))
    pending_add_run(pending_id=accepted["pending_id"])
    assert (running.get().status, running.get().attempts) == ("done", 1)
    assert Memory.objects.get().content == "bob lives in Lisbon."


def test_without_buffering_the_add_answers_with_its_result(submit, settings):
    settings.HELIX_ADD_BUFFERED = False

    result = submit("I live in Lisbon.")

    assert "status" not in result and result["pending_outcomes"] == []
    assert Memory.objects.get(pk=result["memory_ids"][0]).content == "bob lives in Lisbon."
    assert PendingInput.objects.count() == 0


def test_a_buffered_write_that_gives_way_in_a_deadlock_runs_again_whole(submit, run_callbacks, team, monkeypatch):
    accepted, enqueued = submit("I live in Lisbon.", run=False)
    write, calls = conductor._write_stages, []

    def deadlocked_once(*args, **kwargs):
        calls.append(args[0].request.message)
        if len(calls) == 1:  # PostgreSQL ends this transaction so that another can go on
            raise deadlock()
        return write(*args, **kwargs)

    monkeypatch.setattr(conductor, "_write_stages", deadlocked_once)
    monkeypatch.setattr(conflicts, "PAUSE_SECONDS", 0)

    run_callbacks(enqueued)

    status = add_status_get(actor=team["writer"], pending_id=accepted["pending_id"])
    assert status["status"] == "done"
    assert calls == ["I live in Lisbon.", "I live in Lisbon."]
    assert list(Memory.objects.values_list("content", flat=True)) == ["bob lives in Lisbon."]
    assert IngestRun.objects.get().error_code == ""  # the undone attempt's run went with it

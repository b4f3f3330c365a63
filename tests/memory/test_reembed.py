"""manage.py reembed: every stored vector embedded again with another model while search goes
on answering from the old ones, then one switch; resumable, one run at a time, told on /healthz.
Every writer of a vector (memories, document chunks, entity names, corrections) refuses to store
one of the old model, before embedding and again once it holds the table the switch locked.

The new model is an OpenAI-compatible endpoint on this machine whose 8-d vectors are computed
from the words of each text, so texts sharing words point the same way. Each test runs in a
transaction: the columns it adds, drops and renames are rolled back with it."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np
import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings

from helixsite.errors import ApplicationError
from memory.documents import services as document_services
from memory.documents.models import Chunk, Document
from memory.documents.services import DocumentInput, document_add
from memory.embedding_space import embedding_space_ensure
from memory.ingest import enrich
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import EmbeddingSpace, Entity, Memory, ReembedJob
from memory.providers import get_embedder, reset_providers
from memory.reembed import schema
from memory.reembed.conductor import reembed_abort, reembed_run
from memory.reembed.target import Target
from memory.search.conductor import memory_search
from memory.selectors import reembed_status
from memory.services import corrections
from memory.services.add import memory_add
from memory.services.corrections import memory_update
from memory.tasks import memory_enrich
from rbac.models import Principal
from tests.factories import make_principal
from tests.helixsite.agents.mcp.conftest import ROOT, server_env
from tests.openai_compatible_server import Answer, OpenAICompatibleServer, embedding_answer

pytestmark = pytest.mark.django_db

DIM = 8
EMBEDDINGS = "/v1/embeddings"
FACTS = [
    "Bob keeps bees on the roof in Lisbon.",
    "Bob's sister Alice teaches chemistry in Porto.",
    "Bob plays the cello every Sunday morning.",
    "Bob is allergic to penicillin.",
    "Bob drives an old green Volvo.",
    "Bob's favourite dish is grilled sardines.",
    "Bob runs the Helix deployment on Kubernetes.",
]


def word_vector(text: str, dimension: int = DIM) -> list[float]:
    """Words hashed into buckets with a sign: the same on every run and in every process."""
    vector = np.zeros(dimension)
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % dimension] += 1.0 if digest[1] % 2 else -1.0
    if not vector.any():
        vector[0] = 1.0
    return (vector / np.linalg.norm(vector)).tolist()


@pytest.fixture
def endpoint() -> Iterator[OpenAICompatibleServer]:
    with OpenAICompatibleServer() as server:
        server.queue(EMBEDDINGS, *[lambda body: embedding_answer([word_vector(t) for t in body["input"]])] * 500)
        yield server


@pytest.fixture
def target(endpoint) -> Target:
    return Target(provider="openai", model="words-8", dimension=DIM, base_url=endpoint.base_url)


@pytest.fixture
def new_settings(endpoint, monkeypatch):
    """This process configured with the new model, as the operator restarts it after the switch
    (a process started so builds its models' vector fields with the new dimension)."""
    for model in (Memory, Entity, Chunk):
        monkeypatch.setattr(model._meta.get_field("embedding"), "dimensions", DIM)
    with override_settings(
        HELIX_EMBEDDINGS="openai", HELIX_EMBEDDING_MODEL="words-8", HELIX_EMBEDDING_DIM=DIM,
        HELIX_EMBEDDING_BASE_URL=endpoint.base_url,
    ):  # fmt: skip
        reset_providers()
        yield
    reset_providers()


@pytest.fixture
def stored(team) -> list[Memory]:
    """Bob's facts in the team workspace, written with the installed (local, 384-d) model; their
    entities are named in them and have no vector yet."""
    embedding_space_ensure()
    rows = [ImportRow(n, "bob", fact, "fact", "team", {}, None, "") for n, fact in enumerate(FACTS)]
    import_rows(actor=team["writer"], rows=rows, batch_size=50, rebuild_index="never")
    return list(Memory.objects.order_by("content"))


def search(actor, query: str) -> list[str]:
    return [r["content"] for r in memory_search(actor=actor, query=query, user_id="bob")["results"]]


def texts_sent(endpoint: OpenAICompatibleServer) -> list[str]:
    return [text for body in endpoint.requests_to(EMBEDDINGS) for text in body["input"]]


class Interrupted(Exception):
    """Stands for whatever stops a run half way: Ctrl-C, a lost connection, kill -9."""


def stop_after(batches: int) -> Callable[[ReembedJob], None]:
    seen = []

    def progress(job: ReembedJob) -> None:
        if job.phase == "embedding" and job.done:
            seen.append(job.done)
            if len(seen) == batches:
                raise Interrupted("stopped half way")

    return progress


def next_vector_of(memory: Memory) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT embedding_next::text FROM memory_memory WHERE id = %s", [memory.pk])
        return cursor.fetchone()[0]


def column_type(table: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = to_regclass(%s) "
            "AND attname = 'embedding' AND NOT attisdropped",
            [table],
        )
        return cursor.fetchone()[0]


def test_every_memory_and_entity_is_embedded_with_the_new_model_and_the_installation_switches(
    stored, target, new_settings, team
):
    entities = Entity.objects.count()
    assert entities > 0 and not Entity.objects.filter(embedding__isnull=False).exists()

    job = reembed_run(target=target, batch_size=3)

    assert (job.status, job.done, job.total) == ("done", len(FACTS) + entities, len(FACTS) + entities)
    assert job.source == "local:all-MiniLM-L6-v2 (384-d)" and job.switch_ms is not None
    space = EmbeddingSpace.objects.get()
    assert (space.provider, space.model, space.dimension) == ("openai", "words-8", DIM)
    assert column_type("memory_memory") == column_type("memory_entity") == f"vector({DIM})"
    for memory in Memory.objects.all():
        assert np.allclose(memory.embedding, word_vector(memory.content), atol=1e-6)
    for entity in Entity.objects.all():
        assert np.allclose(entity.embedding, word_vector(entity.name), atol=1e-6)
    assert search(team["viewer"], "who plays the cello on Sunday")[0] == "Bob plays the cello every Sunday morning."
    assert schema.next_dimension(schema.TABLES[0]) is None, "nothing of the run is left behind"


def test_document_chunks_are_embedded_as_where_they_sit_then_their_text(stored, target, team):
    runbook = "# Deploy runbook\n\nEvery deploy goes through the canary first.\n\n## Rollback\n\nRun helm rollback."
    document_add(
        actor=team["writer"], given=DocumentInput(user_id="bob", title="Payments", text=runbook), group_id="team"
    )
    chunks = list(Chunk.objects.all())
    assert chunks

    reembed_run(target=target, batch_size=50)

    assert column_type("documents_chunk") == f"vector({DIM})"
    for chunk in Chunk.objects.all():
        where = " › ".join(part for part in ("Payments", chunk.heading) if part)
        assert np.allclose(chunk.embedding, word_vector(f"{where}\n\n{chunk.text}"), atol=1e-6)


def test_the_switch_leaves_the_schema_as_migrations_make_it_but_for_the_dimension(stored, target):
    reembed_run(target=target, batch_size=50)

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attnotnull FROM pg_attribute WHERE attrelid = 'memory_memory'::regclass AND attname = 'embedding'"
        )
        assert cursor.fetchone() == (True,)
        cursor.execute("SELECT pg_get_indexdef('memory_embedding_hnsw'::regclass)")
        assert "USING hnsw (embedding vector_cosine_ops) WITH (m='16', ef_construction='64')" in cursor.fetchone()[0]
        cursor.execute(
            "SELECT count(*) FROM pg_constraint WHERE conname LIKE '%%embedding_present' "
            "UNION ALL SELECT count(*) FROM pg_trigger WHERE tgname LIKE '%%next_stale' "
            "UNION ALL SELECT count(*) FROM pg_proc WHERE proname = 'reembed_next_stale'"
        )
        assert cursor.fetchall() == [(0,), (0,), (0,)]


def test_search_answers_from_the_old_vectors_between_batches_and_writes_meanwhile_are_caught_up(
    stored, target, team, add
):
    answers: list[list[str]] = []

    def progress(job: ReembedJob) -> None:
        if job.phase == "embedding" and job.done:
            answers.append(search(team["viewer"], "Bob's allergy to penicillin"))
            if len(answers) == 1:
                add("Bob collects vintage fountain pens.")

    reembed_run(target=target, batch_size=2, progress=progress)

    assert len(answers) >= 3, "searched between batches while the run worked"
    assert all(found[0] == "Bob is allergic to penicillin." for found in answers)
    written = Memory.objects.get(content__icontains="fountain pens")
    assert np.allclose(written.embedding, word_vector(written.content), atol=1e-6), "written meanwhile, caught up"


def test_a_memory_rewritten_after_it_was_embedded_is_embedded_again_from_its_new_text(stored, target):
    first = Memory.objects.order_by("id").first()

    def progress(job: ReembedJob) -> None:
        if job.phase == "embedding" and job.done >= 2 and not first.content.endswith("(corrected)"):
            assert next_vector_of(first) is not None, "embedded in the first batch"
            first.content += " (corrected)"
            Memory.objects.filter(pk=first.pk).update(content=first.content)
            assert next_vector_of(first) is None, "the trigger forgot the vector of the old text"

    reembed_run(target=target, batch_size=2, progress=progress)

    first.refresh_from_db()
    assert first.content.endswith("(corrected)")
    assert np.allclose(first.embedding, word_vector(first.content), atol=1e-6)


def test_after_the_switch_the_new_configuration_searches_and_writes(stored, target, new_settings, team, add):
    reembed_run(target=target, batch_size=50)

    result = add("Bob learned to sail in Cascais last summer.")

    stored_now = Memory.objects.get(pk=result["memory_ids"][0])
    assert np.allclose(stored_now.embedding, word_vector(stored_now.content), atol=1e-6)
    assert search(team["viewer"], "sailing in Cascais")[0] == "Bob learned to sail in Cascais last summer."


def test_a_process_still_configured_with_the_old_model_is_told_to_restart_on_search_and_write(
    stored, target, team, add
):
    reembed_run(target=target, batch_size=50)

    with pytest.raises(ApplicationError) as refused_search:
        search(team["viewer"], "cello")
    with pytest.raises(ApplicationError) as refused_write:
        add("Bob bought a kayak.")

    for refusal in (refused_search.value, refused_write.value):
        assert (refusal.code, refusal.status) == ("embedding_space_mismatch", 503)
        assert "manage.py reembed switched the stored vectors to openai:words-8 (8-d)" in refusal.message
        assert "restart the server with HELIX_EMBEDDINGS=openai HELIX_EMBEDDING_MODEL=words-8" in refusal.message
    assert not Memory.objects.filter(content__icontains="kayak").exists()


def test_an_interrupted_run_resumes_without_embedding_again_what_it_had_done(stored, target, endpoint):
    with pytest.raises(Interrupted):
        reembed_run(target=target, batch_size=2, progress=stop_after(batches=2))
    job = ReembedJob.objects.get()
    assert (job.status, job.done) == ("running", 4)
    first_run = texts_sent(endpoint)

    reembed_run(target=target, batch_size=2)

    second_run = texts_sent(endpoint)[len(first_run) :]
    embedded_first = set(first_run[1:])  # after the probe
    assert len(embedded_first) == 4 and not embedded_first & set(second_run[1:])
    assert len(second_run) - 1 == ReembedJob.objects.get().total - 4
    assert ReembedJob.objects.get().status == "done"


def test_healthz_shows_the_run_s_progress_then_done_then_the_restart_to_make(client, stored, target, endpoint):
    client.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)
    assert client.get("/healthz").json()["checks"]["embedder"]["reembed"] == {"status": "idle"}
    seen: list[dict] = []

    def progress(job: ReembedJob) -> None:
        if job.phase == "embedding" and job.done:
            seen.append(client.get("/healthz").json()["checks"]["embedder"]["reembed"])

    reembed_run(target=target, batch_size=3, progress=progress)
    old = client.get("/healthz").json()["checks"]["embedder"]
    with override_settings(
        HELIX_EMBEDDINGS="openai", HELIX_EMBEDDING_MODEL="words-8", HELIX_EMBEDDING_DIM=DIM,
        HELIX_EMBEDDING_BASE_URL=endpoint.base_url,
    ):  # fmt: skip
        reset_providers()
        new = client.get("/healthz").json()["checks"]["embedder"]

    running = seen[0]
    assert running["status"] == "running" and running["phase"] == "embedding"
    assert (running["target"], running["done"]) == ("openai:words-8 (8-d)", 3)
    assert running["total"] == len(FACTS) + Entity.objects.count()
    assert [state["done"] for state in seen] == sorted(state["done"] for state in seen)
    assert old["ok"] is False and "restart the server with HELIX_EMBEDDINGS=openai" in old["error"]
    assert old["reembed"]["status"] == "done" and old["installed"] == "openai:words-8 (8-d)"
    assert new["ok"] is True and new["reembed"]["status"] == "done" and "switch_ms" in new["reembed"]


def test_healthz_tells_an_interrupted_run_apart_from_a_running_one(client, stored, target):
    client.force_login(make_principal("root", kind=Principal.Kind.HUMAN, admin=True).user)
    with pytest.raises(Interrupted):
        reembed_run(target=target, batch_size=2, progress=stop_after(batches=1))

    state = client.get("/healthz").json()["checks"]["embedder"]["reembed"]

    assert (state["status"], state["done"], state["error"]) == ("interrupted", 2, "stopped half way")


def test_a_second_run_while_one_works_is_refused(stored, target):
    refusals: list[ApplicationError] = []

    def progress(job: ReembedJob) -> None:
        if job.phase == "embedding" and job.done and not refusals:
            with pytest.raises(ApplicationError) as refused:
                reembed_run(target=target, batch_size=2)
            refusals.append(refused.value)
            with pytest.raises(CommandError, match="A re-embed to openai:words-8 \\(8-d\\) is running"):
                call_command("reembed", "--abort")

    reembed_run(target=target, batch_size=2, progress=progress)

    assert refusals[0].code == "reembed_running"
    assert refusals[0].message.startswith("A re-embed to openai:words-8 (8-d) is running (embedding, 2 of ")
    assert ReembedJob.objects.get().status == "done", "the first run went on"


def test_another_target_waits_for_the_unfinished_job_and_abort_gives_it_up(stored, target):
    before = {m.pk: list(m.embedding) for m in Memory.objects.all()}
    with pytest.raises(Interrupted):
        reembed_run(target=target, batch_size=2, progress=stop_after(batches=1))

    with pytest.raises(ApplicationError) as refused:
        reembed_run(target=Target(provider="local", model="all-MiniLM-L6-v2", dimension=384), batch_size=2)
    assert refused.value.code == "reembed_unfinished"
    assert "A re-embed to openai:words-8 (8-d) is unfinished (2 of" in refused.value.message
    assert "or with --abort to give it up" in refused.value.message

    aborted = reembed_abort()

    assert aborted is not None and ReembedJob.objects.get().status == "aborted"
    assert schema.next_dimension(schema.TABLES[0]) is None
    assert {m.pk: list(m.embedding) for m in Memory.objects.all()} == before
    assert EmbeddingSpace.objects.get().dimension == 384


def test_switching_back_to_the_local_model_restores_the_original_space(stored, target, team):
    original = {m.pk: np.asarray(m.embedding) for m in Memory.objects.all()}
    reembed_run(target=target, batch_size=50)

    reembed_run(target=Target(provider="local", model="all-MiniLM-L6-v2", dimension=384), batch_size=50)

    assert column_type("memory_memory") == "vector(384)"
    space = EmbeddingSpace.objects.get()
    assert (space.provider, space.model, space.dimension) == ("local", "all-MiniLM-L6-v2", 384)
    for memory in Memory.objects.all():
        assert np.allclose(memory.embedding, original[memory.pk], atol=1e-4)
    assert search(team["viewer"], "grilled sardines")[0] == "Bob's favourite dish is grilled sardines."


def test_the_command_shows_progress_and_says_what_to_restart_with(stored, endpoint, capsys):
    call_command(
        "reembed", "--provider", "openai", "--model", "words-8", "--dimension", "8", "--base-url", endpoint.base_url
    )

    out = capsys.readouterr()
    assert "Switched to openai:words-8 (8-d):" in out.out
    assert f"HELIX_EMBEDDING_DIM=8\n  HELIX_EMBEDDING_BASE_URL={endpoint.base_url}\n" in out.out
    assert "row" in out.err, "a progress bar"
    call_command("reembed", "--status")
    assert capsys.readouterr().out.startswith("done to openai:words-8 (8-d)\n")


def test_no_switch_stops_ready_and_the_next_run_catches_up_and_switches(stored, target, add, capsys):
    reembed_run(target=target, batch_size=50, switch_now=False)
    assert EmbeddingSpace.objects.get().dimension == 384
    call_command("reembed", "--status")
    assert capsys.readouterr().out.startswith("ready to openai:words-8 (8-d)")
    add("Bob repaired the boat's engine himself.")

    job = reembed_run(target=target, batch_size=50)

    assert job.status == "done" and EmbeddingSpace.objects.get().dimension == DIM
    written = Memory.objects.get(content__icontains="boat")
    assert np.allclose(written.embedding, word_vector(written.content), atol=1e-6)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "Name the new model with --provider (local or openai)"),
        (["--provider", "cohere"], "argument --provider: invalid choice: 'cohere'"),
        (["--provider", "openai", "--dimension", "8"], "--model is required with --provider openai"),
        (["--provider", "openai", "--model", "m"], "--dimension is required with --provider openai"),
        (["--provider", "openai", "--model", "m", "--dimension", "0"], "--dimension must be from 1 to 2000"),
        (["--provider", "openai", "--model", "m", "--dimension", "4096"], "--dimension must be from 1 to 2000"),
        (["--provider", "openai", "--model", "m", "--dimension", "x"], "argument --dimension: invalid int value"),
        (
            ["--provider", "openai", "--model", "m", "--dimension", "8", "--base-url", "ftp://x"],
            "--base-url 'ftp://x' is not an http:// or https:// URL",
        ),
        (["--provider", "local", "--model", "bge-small"], "The local provider runs all-MiniLM-L6-v2 only"),
        (["--provider", "local", "--dimension", "768"], "all-MiniLM-L6-v2 gives 384-d vectors"),
        (["--provider", "local", "--batch-size", "0"], "--batch-size must be at least 1"),
        (
            ["--provider", "openai", "--model", "m", "--dimension", "8", "--base-url", "http://127.0.0.1:9/v1"],
            "The target model openai:m (8-d) cannot be used:",
        ),
    ],
)
def test_bad_input_is_one_clear_line(stored, arguments, message):
    with override_settings(HELIX_EMBEDDING_MAX_RETRIES=0), pytest.raises(CommandError) as refused:
        call_command("reembed", *arguments)

    assert message in str(refused.value)
    assert not ReembedJob.objects.exists() and EmbeddingSpace.objects.get().dimension == 384


def test_an_installation_that_never_started_has_nothing_to_re_embed():
    with pytest.raises(CommandError, match="has not recorded its embedding model yet"):
        call_command("reembed", "--provider", "local")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_killed_outright_resumes_where_it_stopped(team):
    """kill -9 in the middle of the embedding: the batch in flight is lost, the lock goes with the
    connection, and the same command run again embeds only what was not stored, then switches.
    The dimension stays 384, so the committed schema is the one the other tests expect."""
    embedding_space_ensure()
    rows = [ImportRow(n, "bob", fact, "fact", "team", {}, None, "") for n, fact in enumerate(FACTS)]
    import_rows(actor=team["writer"], rows=rows, batch_size=50, rebuild_index="never")
    released = threading.Event()
    with OpenAICompatibleServer() as endpoint:
        # The probe and two batches are answered; the third waits until the first run is killed.
        endpoint.queue(EMBEDDINGS, *words_held_after(3, released, dimension=384))
        command = [*REEMBED, "--model", "words-384", "--dimension", "384", "--base-url", endpoint.base_url]
        try:
            # The held batch waits for the kill, not for the client's timeout to fail the run.
            held = server_env(HELIX_EMBEDDING_TIMEOUT=str(HOLD_SECONDS))
            first = subprocess.Popen(command, cwd=ROOT, env=held, start_new_session=True)
            embedding = ReembedJob.objects.filter(phase="embedding", done__gte=4)
            assert wait_for(embedding.exists, while_running=first), "the first run never got going"
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=30)
            released.set()
            sent_before_kill = len(texts_sent(endpoint))
            with connection.cursor() as cursor:
                cursor.execute("SELECT content FROM memory_memory WHERE embedding_next IS NOT NULL")
                stored_before_kill = {content for (content,) in cursor.fetchall()}
            assert wait_for(lambda: reembed_status()["status"] == "interrupted"), "the lock outlived its process"

            second = subprocess.run(command, cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=300)
        finally:
            released.set()
            if schema.next_dimension(schema.TABLES[0]) is not None:
                reembed_abort()

    assert second.returncode == 0, second.stderr
    assert "Switched to openai:words-384 (384-d)" in second.stdout
    assert len(stored_before_kill) >= 4
    assert not stored_before_kill & set(texts_sent(endpoint)[sent_before_kill + 1 :]), "not embedded twice"
    assert ReembedJob.objects.get().status == "done"
    for memory in Memory.objects.all():
        assert np.allclose(memory.embedding, word_vector(memory.content, 384), atol=1e-6)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_search_prepared_before_another_process_switched_the_vectors_answers_after_it(team):
    """A web process holds its search statements prepared (HELIX_DB_PREPARED) while
    ``manage.py reembed`` swaps the embedding column under it; restarted with the new model, as
    the command says, its next search on the same connection is planned over the new column and
    answers. The dimension stays 384, so the committed schema is the one the other tests expect."""
    embedding_space_ensure()
    rows = [ImportRow(n, "bob", fact, "fact", "team", {}, None, "") for n, fact in enumerate(FACTS)]
    import_rows(actor=team["writer"], rows=rows, batch_size=50, rebuild_index="never")
    assert search(team["viewer"], "grilled sardines")[0] == "Bob's favourite dish is grilled sardines."
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%%embedding <=>%%'")
        assert cursor.fetchone()[0] > 0, "the search's vector statements are prepared on this connection"

    with OpenAICompatibleServer() as endpoint:
        endpoint.queue(EMBEDDINGS, *[lambda body: embedding_answer([word_vector(t, 384) for t in body["input"]])] * 50)
        command = [*REEMBED, "--model", "words-384", "--dimension", "384", "--base-url", endpoint.base_url]
        switched = subprocess.run(command, cwd=ROOT, env=server_env(), capture_output=True, text=True, timeout=300)
        assert switched.returncode == 0, switched.stderr
        with override_settings(
            HELIX_EMBEDDINGS="openai", HELIX_EMBEDDING_MODEL="words-384", HELIX_EMBEDDING_BASE_URL=endpoint.base_url
        ):
            reset_providers()
            try:
                found = search(team["viewer"], "grilled sardines")
            finally:
                reset_providers()

    assert found[0] == "Bob's favourite dish is grilled sardines."


REEMBED = [sys.executable, "manage.py", "reembed", "--provider", "openai", "--batch-size", "2"]


HOLD_SECONDS = 300


def words_held_after(answered: int, released: threading.Event, *, dimension: int) -> list[Callable[[dict], Answer]]:
    """Vectors of the words: the first ``answered`` requests at once, every later one once
    ``released`` is set. A run is held mid-way however slowly the test gets to killing it."""

    def words(body: dict) -> Answer:
        return embedding_answer([word_vector(t, dimension) for t in body["input"]])

    def held(body: dict) -> Answer:
        released.wait(timeout=HOLD_SECONDS)
        return words(body)

    return [words] * answered + [held] * 200


def wait_for(condition: Callable[[], bool], *, while_running: subprocess.Popen | None = None) -> bool:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (while_running is None or while_running.poll() is None):
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_switch_that_cannot_get_the_tables_in_time_changes_nothing_and_a_later_run_switches(team):
    """A long reader (an export, say) holds the memory table when the switch wants it to itself:
    after HELIX_REEMBED_LOCK_TIMEOUT_SECONDS the switch gives up, rolled back whole."""
    embedding_space_ensure()
    rows = [ImportRow(n, "bob", fact, "fact", "team", {}, None, "") for n, fact in enumerate(FACTS)]
    import_rows(actor=team["writer"], rows=rows, batch_size=50, rebuild_index="never")
    reader = psycopg.connect(**connection.get_connection_params())
    with OpenAICompatibleServer() as endpoint:
        endpoint.queue(EMBEDDINGS, *[lambda body: embedding_answer([word_vector(t, 384) for t in body["input"]])] * 100)
        target = Target(provider="openai", model="words-384", dimension=384, base_url=endpoint.base_url)

        def progress(job: ReembedJob) -> None:
            if job.status == "switching" and reader.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                reader.execute("SELECT count(*) FROM memory_memory")  # holds the table until it commits

        try:
            with override_settings(HELIX_REEMBED_LOCK_TIMEOUT_SECONDS=0.3), pytest.raises(ApplicationError) as busy:
                reembed_run(target=target, batch_size=50, progress=progress)
            job = ReembedJob.objects.get()
            space = EmbeddingSpace.objects.get()
            reader.rollback()

            reembed_run(target=target, batch_size=50)
        finally:
            reader.close()
            if schema.next_dimension(schema.TABLES[0]) is not None:
                reembed_abort()

    assert busy.value.code == "tables_busy" and "nothing was changed. Run the command again." in busy.value.message
    assert (job.status, space.model) == ("running", "all-MiniLM-L6-v2"), "the switch was rolled back whole"
    assert ReembedJob.objects.get().status == "done" and EmbeddingSpace.objects.get().model == "words-384"


# --- writes that embed with the old model: documents, entity names, corrections ---------------------


def test_a_process_still_configured_with_the_old_model_is_told_to_restart_when_adding_a_document(stored, target, team):
    reembed_run(target=target, batch_size=50)
    runbook = "# Deploy runbook\n\nEvery deploy goes through the canary first."

    with pytest.raises(ApplicationError) as refused:
        document_add(
            actor=team["writer"], given=DocumentInput(user_id="bob", title="Deploy", text=runbook), group_id="team"
        )

    assert (refused.value.code, refused.value.status) == ("embedding_space_mismatch", 503)
    assert "restart the server with HELIX_EMBEDDINGS=openai HELIX_EMBEDDING_MODEL=words-8" in refused.value.message
    assert refused.value.details["chunks_done"] == 0 and not Chunk.objects.exists()


@pytest.fixture
def same_size_target() -> Iterator[Target]:
    """Another model of the installed dimension: a vector of the old model would fit its column,
    so only the check after the write's lock tells the two apart."""
    with OpenAICompatibleServer() as server:
        server.queue(EMBEDDINGS, *[lambda body: embedding_answer([word_vector(t, 384) for t in body["input"]])] * 100)
        yield Target(provider="openai", model="words-384", dimension=384, base_url=server.base_url)


class SwitchedWhileEmbedding:
    """The installed model's embedder, during whose first call a re-embed switches the installation
    to ``target``: the vectors it returns are of the model the stored ones no longer are in."""

    def __init__(self, target: Target) -> None:
        self.inner, self.target, self.switched = get_embedder(), target, False

    def embed(self, texts: list[str], *, purpose: str) -> np.ndarray:
        vectors = self.inner.embed(texts, purpose=purpose)
        if not self.switched:
            self.switched = True
            reembed_run(target=self.target, batch_size=50)
        return vectors

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def test_a_document_chunk_embedded_before_a_switch_it_waited_on_is_refused_not_stored(
    stored, same_size_target, team, monkeypatch
):
    monkeypatch.setattr(document_services, "get_embedder", lambda: switching)
    switching = SwitchedWhileEmbedding(same_size_target)
    runbook = "# Deploy runbook\n\nEvery deploy goes through the canary first."

    with pytest.raises(ApplicationError) as refused:
        document_add(
            actor=team["writer"], given=DocumentInput(user_id="bob", title="Deploy", text=runbook), group_id="team"
        )

    assert switching.switched and EmbeddingSpace.objects.get().model == "words-384"
    assert (refused.value.code, refused.value.status) == ("embedding_space_mismatch", 503)
    assert not Chunk.objects.exists(), "no chunk stored with a vector of the old model"
    document = Document.objects.get()
    assert (document.status, document.error.split(":")[0]) == ("failed", "embedding_space_mismatch")


def test_entity_names_embedded_before_a_switch_they_waited_on_keep_the_new_models_vectors(
    stored, same_size_target, team, monkeypatch, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):  # the enrichment is the worker's, later
        added = memory_add(
            actor=team["writer"], user_id="bob", message="Bob met Carlos Mendes in Lisbon.", group_id="team"
        )
    named = Entity.objects.filter(mentions__memory_id=added["memory_ids"][0])
    assert named.exists() and not named.filter(embedding__isnull=False).exists()
    monkeypatch.setattr(enrich, "get_embedder", lambda: switching)
    switching = SwitchedWhileEmbedding(same_size_target)

    with pytest.raises(ApplicationError) as refused:
        memory_enrich(added["run_id"])

    assert switching.switched and EmbeddingSpace.objects.get().model == "words-384"
    assert (refused.value.code, refused.value.status) == ("embedding_space_mismatch", 503)
    for entity in named:
        assert np.allclose(entity.embedding, word_vector(entity.name, 384), atol=1e-6), "the re-embed's vector"


def test_a_correction_embedded_before_a_switch_it_waited_on_is_refused_and_the_memory_stays_as_it_was(
    stored, same_size_target, team, monkeypatch
):
    bees = Memory.objects.get(content=FACTS[0])
    monkeypatch.setattr(corrections, "get_embedder", lambda: switching)
    switching = SwitchedWhileEmbedding(same_size_target)

    with pytest.raises(ApplicationError) as refused:
        memory_update(actor=team["writer"], memory_id=bees.pk, content="Bob keeps bees on the roof in Porto.")

    assert switching.switched and (refused.value.code, refused.value.status) == ("embedding_space_mismatch", 503)
    bees.refresh_from_db()
    assert bees.content == FACTS[0] and not bees.history.exists()
    assert np.allclose(bees.embedding, word_vector(FACTS[0], 384), atol=1e-6), "the re-embed's vector"

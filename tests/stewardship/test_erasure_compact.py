"""manage.py erasure_compact after an erasure: the erased words, which the deleted rows leave in
the tables' files (and their column statistics in the statistics catalogue's), are gone from every
file of every table it rewrites (heap, TOAST, indexes), read on disk; each table's time and sizes
are printed and kept in an audit line; a table it may not rewrite, or cannot lock, is named."""

from __future__ import annotations

import contextlib
import io
import json
import threading
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from memory.erasure import compact
from memory.erasure.compact import STATISTICS
from memory.erasure.services import erasure_table_names, owner_erase
from stewardship.models import AuditEntry

# VACUUM cannot run inside a transaction: these tests commit, as the command does.
pytestmark = pytest.mark.usefixtures("transactional_db")

WORD = "Zanzibarquokka"  # in alice's memory only
COMPACTED = [*erasure_table_names(), STATISTICS]


def files_of(table: str) -> list[Path]:
    """The files on disk of ``table``, its TOAST table and every index of either: each one's
    segments (``16384``, ``16384.1``…), not the free-space and visibility maps."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('data_directory')")
        data = Path(cursor.fetchone()[0])
        cursor.execute(
            """WITH relation AS (SELECT oid FROM pg_class WHERE oid = %(t)s::regclass
                                 UNION SELECT reltoastrelid FROM pg_class WHERE oid = %(t)s::regclass AND reltoastrelid <> 0)
               SELECT pg_relation_filepath(oid) FROM relation
               UNION SELECT pg_relation_filepath(indexrelid) FROM pg_index WHERE indrelid IN (SELECT oid FROM relation)""",
            {"t": table},
        )
        paths = [data / row[0] for row in cursor.fetchall()]
    return [segment for path in paths for segment in [path, *path.parent.glob(f"{path.name}.*")] if segment.exists()]


def on_disk(word: str, table: str) -> bool:
    """Whether the bytes of ``word`` (any case: a search vector holds it lower-cased) are in a file of ``table``."""
    with connection.cursor() as cursor:
        cursor.execute("CHECKPOINT")  # what the buffers hold, written to the files
    needle = word.lower().encode()
    return any(needle in path.read_bytes().lower() for path in files_of(table))


def statistics_holding(word: str) -> dict:
    """What to read when the word outlives a compaction: the live statistics rows that sample it (none:
    the bytes are a dead row's, kept by something holding the horizon back) and the sessions then open."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT starelid::regclass::text, staattnum FROM pg_statistic
               WHERE concat_ws(' ', stavalues1::text, stavalues2::text, stavalues3::text, stavalues4::text,
                               stavalues5::text) ILIKE %s""",
            [f"%{word}%"],
        )
        live = cursor.fetchall()
        cursor.execute(
            """SELECT pid, datname, backend_type, state, backend_xid::text, backend_xmin::text,
                      to_char(xact_start, 'HH24:MI:SS.MS'), left(query, 80)
               FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND (backend_xid IS NOT NULL OR backend_xmin IS NOT NULL)"""
        )
        return {"live statistics rows": live, "sessions with a snapshot or a write": cursor.fetchall()}


@pytest.fixture(autouse=True)
def no_session_left_open(transactional_db):
    """A session an earlier test of this process left idle in a transaction holds back what VACUUM
    may remove in this database (the compaction waits for such sessions, then rewrites anyway):
    ended first, so each test sees only what it does itself."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()
               AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'"""
        )


@pytest.fixture(autouse=True)
def other_processes_writes_waited_for(monkeypatch):
    """The other test process writes in its own database on the same server, each test in a
    transaction, some for a minute: every snapshot here counts those as running (the rewrite's
    own too), so the compaction rightly waits for the one open since before it. Long enough for
    any of them to end: then each test sees only what it does itself."""
    monkeypatch.setattr(compact, "SESSION_WAIT_SECONDS", 600)


@pytest.fixture
def erased(add):
    """alice's memory with the word, erased; bob's memory kept."""
    add(f"I hid the spare key under the {WORD} statue.", user_id="alice")
    add("I live in Lisbon.", user_id="bob")
    if not files_of("memory_memory"):
        pytest.skip("the database's files are not on this machine (an external DATABASE_URL)")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_memory")  # as autovacuum does: the statistics sample her memory
    assert on_disk(WORD, "memory_memory") and on_disk(WORD, STATISTICS)
    report = owner_erase(user_id="alice")
    assert report.passed


def run(*args: str) -> dict:
    out = io.StringIO()
    call_command("erasure_compact", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_the_erased_word_is_on_disk_until_the_compaction_then_in_no_file_of_any_table_it_rewrites(erased):
    assert on_disk(WORD, "memory_memory"), "the deleted row's bytes are still in the table's file"

    result = run()

    assert result["complete"] and result["checkpoint"] == "done", result["held"]
    assert [table["table"] for table in result["tables"]] == COMPACTED
    assert [table for table in COMPACTED if on_disk(WORD, table)] == [], statistics_holding(WORD)
    assert on_disk("Lisbon", "memory_memory"), "bob's memory is kept"


def test_a_table_the_erasure_leaves_empty_keeps_no_statistics_sampled_before_it(two_owners):
    """ANALYZE of a table with no live rows leaves its old statistics in place: the search
    statistics' deltas, which the erasure folds away, sampled while her word was among them (as
    an autovacuum's analyze may), would keep the word in the statistics catalogue after the
    compaction rewrote it."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_corpustermdelta")
    assert statistics_holding(WORD)["live statistics rows"], "the deltas' statistics sample her word"
    assert owner_erase(user_id="alice").passed

    result = run()

    assert result["complete"]
    assert statistics_holding(WORD)["live statistics rows"] == []
    assert not on_disk(WORD, STATISTICS)


def test_each_table_s_time_and_sizes_are_printed_and_kept_in_an_audit_line(erased):
    result = run()

    memories = next(table for table in result["tables"] if table["table"] == "memory_memory")
    assert memories["seconds"] > 0 and memories["bytes_after"] > 0 and memories["skipped"] == ""
    [line] = AuditEntry.objects.filter(action="erasure.compact")
    assert line.actor_name == "manage.py erasure_compact"
    assert line.before["memory_memory"] == memories["bytes_before"]
    kept = line.after["tables"]["memory_memory"]
    assert kept == {"seconds": memories["seconds"], "bytes": memories["bytes_after"], "skipped": ""}
    assert set(line.after["tables"]) == set(COMPACTED) and line.after["checkpoint"] == "done"


def test_given_tables_only_those_are_rewritten(erased):
    result = run("--tables", "memory_memory", "memory_ingestrun")

    assert [table["table"] for table in result["tables"]] == ["memory_memory", "memory_ingestrun"]
    assert not on_disk(WORD, "memory_memory")


@pytest.fixture
def two_owners(add):
    """alice's memory with the word and bob's, not erased yet, on this machine's disk."""
    add(f"I hid the spare key under the {WORD} statue.", user_id="alice")
    add("I live in Lisbon.", user_id="bob")
    if not files_of("memory_memory"):
        pytest.skip("the database's files are not on this machine (an external DATABASE_URL)")


def compacted_once_it_ends(session: psycopg.Connection, monkeypatch) -> dict:
    """alice erased while ``session`` (begun before) is open, then the memories' table compacted;
    ``session`` ends as soon as the compaction is seen waiting."""
    waiting = threading.Event()
    real_sleep = compact.time.sleep
    monkeypatch.setattr(compact.time, "sleep", lambda seconds: (waiting.set(), real_sleep(seconds)))
    assert owner_erase(user_id="alice").passed
    ends = threading.Thread(target=lambda: (waiting.wait(30), session.commit()))
    ends.start()
    try:
        result = run("--tables", "memory_memory")
    finally:
        waiting.set()
        ends.join()
    assert waiting.is_set()
    return result


def test_a_snapshot_older_than_the_erasure_is_waited_for_so_its_rows_are_not_copied(two_owners, monkeypatch):
    """A session that began before the erasure (a worker's task, a long read) may still read the
    erased rows, so a rewrite made meanwhile copies them into the new file: the compaction waits for
    it to end."""
    with contextlib.closing(psycopg.connect(**connection.get_connection_params())) as older:
        older.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        older.execute("SELECT 1")  # its snapshot, taken now, still sees alice's memory (and locks no table)
        result = compacted_once_it_ends(older, monkeypatch)

    assert result["complete"]
    assert not on_disk(WORD, "memory_memory")


def test_a_session_older_than_the_erasure_still_open_is_named_and_the_compaction_not_called_complete(add, monkeypatch):
    add(f"I hid the spare key under the {WORD} statue.", user_id="alice")
    out = io.StringIO()
    with contextlib.closing(psycopg.connect(**connection.get_connection_params())) as older:
        older.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        older.execute("SELECT 1")  # a snapshot that still sees alice's memory, kept open throughout
        pid = older.info.backend_pid
        assert owner_erase(user_id="alice").passed
        with pytest.raises(CommandError, match=f"sessions older than the rewrites were still open \\(.*pid {pid} "):
            call_command("erasure_compact", "--tables", "memory_memory", "--session-wait", "1", "--json", stdout=out)

    result = json.loads(out.getvalue())
    assert not result["complete"] and any(held.startswith(f"pid {pid} ") for held in result["held"])
    [line] = AuditEntry.objects.filter(action="erasure.compact")
    assert line.after["held"] == result["held"]


def another_database() -> psycopg.Connection:
    """A session of another database of the same server (its maintenance database)."""
    return psycopg.connect(**{**connection.get_connection_params(), "dbname": "postgres"})


def test_a_write_open_in_another_database_since_before_the_erasure_is_waited_for(two_owners, monkeypatch):
    """Every snapshot taken here counts a transaction still running in any database of the server,
    the rewrite's own among them: a write open elsewhere since before the erasure would have the
    erased rows copied as recently dead (measured: they are, in the new file)."""
    with contextlib.closing(another_database()) as elsewhere:
        elsewhere.execute("SELECT pg_current_xact_id()")  # a write transaction, open
        result = compacted_once_it_ends(elsewhere, monkeypatch)

    assert result["complete"] and result["held"] == []
    assert not on_disk(WORD, "memory_memory")


def test_a_write_in_another_database_still_open_is_named_and_the_compaction_not_called_complete(add):
    add(f"I hid the spare key under the {WORD} statue.", user_id="alice")
    out = io.StringIO()
    with contextlib.closing(another_database()) as elsewhere:
        elsewhere.execute("SELECT pg_current_xact_id()")
        pid = elsewhere.info.backend_pid
        assert owner_erase(user_id="alice").passed
        with pytest.raises(CommandError, match=f"still open \\(.*pid {pid} \\(postgres, "):
            call_command("erasure_compact", "--tables", "memory_memory", "--session-wait", "1", "--json", stdout=out)

    assert any(held.startswith(f"pid {pid} (postgres, ") for held in json.loads(out.getvalue())["held"])


def test_a_table_no_erasure_touches_is_refused_and_nothing_is_rewritten(erased):
    with pytest.raises(CommandError, match="Not a table an erasure touches: auth_user"):
        run("--tables", "memory_memory", "auth_user")

    assert on_disk(WORD, "memory_memory")
    assert not AuditEntry.objects.filter(action="erasure.compact").exists()


def test_the_printed_report_names_each_table_with_its_sizes(erased):
    out = io.StringIO()
    call_command("erasure_compact", "--tables", "memory_memory", stdout=out)

    assert "memory_memory" in out.getvalue() and "1 table in" in out.getvalue()
    assert "Checkpoint: done." in out.getvalue()


def test_a_table_another_transaction_holds_is_left_as_it_was_and_said_so(erased, monkeypatch):
    monkeypatch.setattr(compact, "LOCK_WAIT_SECONDS", 1)
    out = io.StringIO()
    with contextlib.closing(psycopg.connect(**connection.get_connection_params())) as other:
        other.execute("SELECT count(*) FROM memory_ingestrun")  # its transaction stays open, holding a lock

        with pytest.raises(CommandError, match="Not compacted: memory_ingestrun: not locked within 1 s"):
            call_command("erasure_compact", "--tables", "memory_ingestrun", "memory_memory", "--json", stdout=out)

    result = json.loads(out.getvalue())
    assert [(table["table"], bool(table["skipped"])) for table in result["tables"]] == [
        ("memory_memory", False),
        ("memory_ingestrun", True),
    ]
    assert not result["complete"] and result["held"] == []
    assert not on_disk(WORD, "memory_memory")
    [line] = AuditEntry.objects.filter(action="erasure.compact")
    assert line.after["complete"] is False and line.after["tables"]["memory_ingestrun"]["skipped"]


@pytest.fixture
def as_a_user_owning_nothing():
    """This test's connection as a role that may read and write every table but owns none, and may
    not ask for a checkpoint (an installation whose tables were migrated by another user)."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE ROLE compactor NOLOGIN IN ROLE pg_read_all_data, pg_write_all_data")
        cursor.execute("SET ROLE compactor")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
            cursor.execute("DROP ROLE compactor")


def test_a_table_this_user_may_not_vacuum_is_said_not_rewritten_and_the_checkpoint_left_to_the_server(
    erased, as_a_user_owning_nothing
):
    out = io.StringIO()
    with pytest.raises(CommandError, match="memory_memory: not rewritten: this database user may not vacuum it"):
        call_command("erasure_compact", "--tables", "memory_memory", "--json", stdout=out)

    result = json.loads(out.getvalue())
    assert result["tables"][0]["bytes_after"] == result["tables"][0]["bytes_before"]
    assert result["checkpoint"].startswith("not allowed for this database user")


@pytest.mark.parametrize("seconds", ["-1", "3601"])
def test_a_session_wait_out_of_range_is_refused_before_anything_is_rewritten(erased, seconds):
    with pytest.raises(CommandError, match="--session-wait: give seconds from 0 to 3600"):
        call_command("erasure_compact", "--session-wait", seconds)

    assert on_disk(WORD, "memory_memory")
    assert not AuditEntry.objects.filter(action="erasure.compact").exists()

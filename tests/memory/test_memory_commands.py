"""add_memory and import_jsonl, as an operator runs them."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from memory.models import Memory
from memory.selectors import memory_list
from rbac.models import Role
from tests.factories import grant, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def hnsw_index_exists() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = 'memory_embedding_hnsw'")
        return cursor.fetchone() is not None


def test_add_memory_prints_the_decisions(team):
    out, _ = run("add_memory", "I live in Oslo. thanks!", "--actor", "writer", "--user", "dana", "--group", "team")

    assert "ADD" in out and "dana lives in Oslo." in out and "skipped: thanks!" in out
    assert [m.content for m in memory_list(actor=team["writer"])] == ["dana lives in Oslo."]


def test_add_memory_refusals_are_one_line(team):
    with pytest.raises(CommandError, match=r"You may not write in workspace team. \(forbidden\)"):
        run("add_memory", "I live in Oslo.", "--actor", "viewer", "--user", "dana", "--group", "team")


def test_import_jsonl_loads_dedupes_and_reports_bad_lines(team, tmp_path):
    rows = [
        {"user_id": "dana", "content": "The VPN gateway is vpn-3.internal.", "metadata": {"src": "wiki"}},
        {"user_id": "dana", "content": "The VPN gateway is vpn-3.internal."},
        {
            "user_id": "erin",
            "content": "Erin prefers tea.",
            "memory_type": "preference",
            "occurred_at": "2024-05-01T09:00:00Z",
        },
        {"user_id": "dana", "content": ""},
        "not an object",
    ]
    path = tmp_path / "memories.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n{broken\n")

    out, err = run("import_jsonl", str(path), "--actor", "writer", "--group", "team")

    assert "stored 2, skipped 1 already stored, 3 invalid" in out
    assert "line 4: content is missing or empty" in err and "line 6:" in err
    assert sorted(m.content for m in memory_list(actor=team["writer"])) == [
        "Erin prefers tea.",
        "The VPN gateway is vpn-3.internal.",
    ]
    assert Memory.objects.get(user_id="erin").memory_type == "preference"
    assert memory_list(actor=team["outsider"]) == []

    again, _ = run("import_jsonl", str(path), "--actor", "writer", "--group", "team")
    assert "stored 0, skipped 3 already stored" in again, "the repeated line counts too"


@pytest.mark.django_db(transaction=True)
def test_a_large_import_drops_the_vector_index_and_builds_it_again(tmp_path):
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    path = tmp_path / "memories.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"user_id": "dana", "content": f"Host node-{n} runs service {n % 7}."}) for n in range(300)
        )
    )

    out, _ = run("import_jsonl", str(path), "--actor", "writer", "--group", "team", "--rebuild-index", "always")

    assert "stored 300" in out and "Vector index rebuilt." in out
    assert hnsw_index_exists()
    assert Memory.objects.count() == 300


def test_search_memory_prints_a_table_with_the_signals(team, add):
    add("I live in Paris.")
    add("I moved to Berlin last month.")

    out, _ = run("search_memory", "where does bob live", "--actor", "writer", "--user", "bob")

    assert "bob moved to Berlin" in out and "superseded" in out and "bm25#" in out
    assert "results, mode contextual, scope personal" in out

"""``manage.py import_mem0``'s refusals: each is one clear line, and nothing is written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from memory.models import Memory
from tests.factories import make_principal

pytestmark = pytest.mark.django_db


def refused(config: Path, *args: str) -> str:
    arguments = args or ("--workspace", "imported", "--actor", "migrator")
    with pytest.raises(CommandError) as refusal:
        call_command("import_mem0", str(config), *arguments, stdout=io.StringIO(), stderr=io.StringIO())
    assert not Memory.objects.exists()
    return str(refusal.value)


def written(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def unreachable_store(folder: Path, history: str = "history.db") -> Path:
    """A store mem0 accepts the config of, and cannot read: its Redis is nowhere. Its history is there."""
    (folder / "history.db").touch()
    config = {
        "vector_store": {
            "provider": "redis",
            "config": {"redis_url": "redis://127.0.0.1:9", "collection_name": "m", "embedding_model_dims": 384},
        },
        "history_db_path": str(folder / history),
    }
    return written(folder, "mem0.json", json.dumps(config))


def test_a_workspace_that_does_not_exist_is_named_before_the_store_is_read(importer, tmp_path):
    message = refused(unreachable_store(tmp_path), "--workspace", "nowhere", "--actor", "migrator")

    assert "No workspace 'nowhere' here" in message


def test_an_actor_that_may_not_write_there_is_refused(importer, tmp_path):
    make_principal("stranger")

    message = refused(unreachable_store(tmp_path), "--workspace", "imported", "--actor", "stranger")

    assert "stranger may not write in workspace imported" in message


def test_a_config_file_that_cannot_be_read_is_named(importer, tmp_path):
    assert "Cannot read the mem0 config" in refused(tmp_path / "missing.json")


def test_a_config_that_is_not_one_object_is_refused(importer, tmp_path):
    assert "is not valid JSON" in refused(written(tmp_path, "mem0.json", "{vector_store: 1"))
    assert "must hold one object" in refused(written(tmp_path, "mem0.yaml", "- vector_store\n- llm\n"))


def test_a_config_mem0_refuses_is_named(importer, tmp_path):
    message = refused(written(tmp_path, "mem0.yaml", "vector_store:\n  provider: nowhere-db\n"))

    assert "mem0 refuses the config" in message
    assert "nowhere-db" in message


def test_a_store_that_cannot_be_reached_is_named(importer, tmp_path):
    message = refused(unreachable_store(tmp_path))

    assert "mem0's redis vector store could not be read" in message


def test_a_history_database_missing_where_the_config_says_is_named(importer, tmp_path):
    message = refused(unreachable_store(tmp_path, history="elsewhere.db"))

    assert f"No mem0 history database at {tmp_path / 'elsewhere.db'}" in message
    assert "--without-history" in message
    assert not (tmp_path / "elsewhere.db").exists()

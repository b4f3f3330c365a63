"""Typed environment readers: defaults, valid values, and one clear error for bad ones."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from helixsite.settings.env import env_bool, env_choice, env_float, env_int, env_list, env_path, env_str

ROOT = Path(__file__).resolve().parents[2]


def test_unset_and_blank_values_give_the_default(monkeypatch):
    monkeypatch.delenv("HELIX_X", raising=False)
    assert env_int("HELIX_X", 7) == 7
    monkeypatch.setenv("HELIX_X", "  ")
    assert env_str("HELIX_X", "d") == "d"
    assert env_bool("HELIX_X", True) is True


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False)])
def test_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("HELIX_X", raw)
    assert env_bool("HELIX_X", not expected) is expected


def test_numbers_lists_paths_and_choices(monkeypatch, tmp_path):
    monkeypatch.setenv("HELIX_N", "42")
    monkeypatch.setenv("HELIX_F", "0.75")
    monkeypatch.setenv("HELIX_L", "a, b,,c")
    monkeypatch.setenv("HELIX_P", str(tmp_path / "x" / ".." / "y"))
    monkeypatch.setenv("HELIX_C", "openai")
    assert env_int("HELIX_N", 0, minimum=1, maximum=100) == 42
    assert env_float("HELIX_F", 0.0, maximum=1.0) == 0.75
    assert env_list("HELIX_L", []) == ["a", "b", "c"]
    assert env_path("HELIX_P", Path("/")) == tmp_path / "y"
    assert env_choice("HELIX_C", "local", ["local", "openai"]) == "openai"


@pytest.mark.parametrize(
    ("reader", "raw", "message"),
    [
        (lambda: env_int("HELIX_X", 1), "ten", "HELIX_X='ten' is not a whole number"),
        (lambda: env_int("HELIX_X", 1, minimum=1), "0", "HELIX_X=0 is below the minimum 1"),
        (lambda: env_float("HELIX_X", 1.0, maximum=1.0), "1.5", "HELIX_X=1.5 is above the maximum 1.0"),
        (lambda: env_float("HELIX_X", 1.0), "high", "HELIX_X='high' is not a number"),
        (lambda: env_bool("HELIX_X", True), "maybe", "HELIX_X='maybe' is not a boolean"),
        (lambda: env_choice("HELIX_X", "a", ["a", "b"]), "c", "HELIX_X='c' is not one of: a, b"),
    ],
)
def test_bad_values_raise_improperly_configured_naming_the_variable(monkeypatch, reader, raw, message):
    monkeypatch.setenv("HELIX_X", raw)
    with pytest.raises(ImproperlyConfigured, match=message.replace("(", r"\(").replace(")", r"\)")):
        reader()


def manage_py_check(**variables: str) -> subprocess.CompletedProcess[str]:
    """``manage.py check`` in a process of its own, on the base settings with ``variables`` set."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "helixsite.settings.base", **variables}
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_a_bad_setting_stops_manage_py_with_one_line():
    result = manage_py_check(HELIX_EMBEDDINGS="cohere")
    assert result.returncode == 1
    assert result.stderr.strip() == "Configuration error: HELIX_EMBEDDINGS='cohere' is not one of: local, openai."

"""The registry of settings: the settings module reads each registered setting through it, and a
bad value in the environment stops startup with one line naming the variable."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from helixsite.settings import env, reference
from helixsite.settings.registry import SETTINGS, Setting
from tests.helixsite.test_settings_env import manage_py_check

ROOT = Path(__file__).resolve().parents[2]
READERS = {
    "int": env.read_int,
    "float": env.read_float,
    "bool": env.read_bool,
    "choice": env.read_choice,
    "rate": env.read_rate,
}
CHECKED = [entry for entry in SETTINGS.values() if entry.kind in READERS and entry.default is not None]


def names_read_by_the_settings_module() -> Counter[str]:
    """What the settings module and the module of registered settings it imports read."""
    read: Counter[str] = Counter()
    for module in ("base.py", "registered.py"):
        tree = ast.parse((ROOT / "helixsite" / "settings" / module).read_text())
        read.update(
            node.args[0].value
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith("read_")
        )
    return read


def test_the_settings_module_reads_every_registered_setting_once():
    read = names_read_by_the_settings_module()
    from_environment = {name for name, entry in SETTINGS.items() if entry.environment}
    assert set(read) == from_environment
    assert [name for name, times in read.items() if times > 1] == []


def test_the_module_of_registered_settings_is_what_the_registry_writes():
    written = reference.registered_text(reference.SETTINGS_MODULE.read_text())
    assert reference.REGISTERED.read_text() == written, "run python -m helixsite.settings.reference"


def test_a_setting_added_to_the_registry_alone_is_read_and_typed(monkeypatch):
    """Adding a setting is one edit: its registry entry. The module the registry writes then
    reads it with the reader of its kind, which mypy types."""
    added = Setting("HELIX_EXAMPLE_LIMIT", "int", 7, "an example", minimum=1, maximum=9, section="Example")
    monkeypatch.setitem(SETTINGS, added.name, added)

    written = reference.registered_text(reference.SETTINGS_MODULE.read_text())

    assert '    "HELIX_EXAMPLE_LIMIT",' in written
    assert 'HELIX_EXAMPLE_LIMIT = read_int("HELIX_EXAMPLE_LIMIT")' in written


def test_every_setting_not_read_from_the_environment_is_still_a_setting(settings):
    assert [name for name, entry in SETTINGS.items() if not entry.environment and not hasattr(settings, name)] == []


@pytest.mark.parametrize("entry", CHECKED, ids=lambda entry: entry.name)
def test_a_bad_environment_value_names_the_variable(monkeypatch, entry):
    monkeypatch.setenv(entry.name, "not-a-value")
    with pytest.raises(ImproperlyConfigured) as caught:
        READERS[entry.kind](entry.name)
    assert str(caught.value).startswith(f"{entry.name}='not-a-value' is not ")


def test_an_unset_variable_gives_the_registered_default(monkeypatch):
    monkeypatch.delenv("HELIX_SEARCH_BM25_K1", raising=False)
    assert env.read_float("HELIX_SEARCH_BM25_K1") == SETTINGS["HELIX_SEARCH_BM25_K1"].default == 1.5


def test_a_value_out_of_the_registered_range_stops_manage_py_naming_the_variable():
    result = manage_py_check(HELIX_SEARCH_BM25_K1="11")
    assert result.returncode == 1
    assert result.stderr.strip() == "Configuration error: HELIX_SEARCH_BM25_K1=11.0 is above the maximum 10.0."


def test_reading_a_setting_as_another_kind_is_a_mistake_in_the_code():
    with pytest.raises(LookupError, match="HELIX_PORT is registered as int, not float"):
        env.read_float("HELIX_PORT")
    with pytest.raises(LookupError, match="HELIX_NOT_A_SETTING is not in helixsite.settings.registry"):
        env.read_int("HELIX_NOT_A_SETTING")

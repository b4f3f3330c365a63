"""Typed validation of the keys the room may patch: each refusal names the key and the reason, and a
patch is held to the range the environment is held to."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from helixsite.errors import InvalidInput
from helixsite.runtime.allowlist import KEYS, key_named
from helixsite.settings.env import read_float, read_int
from helixsite.settings.registry import SETTINGS


def refusal(name: str, raw: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        key_named(name).parse(raw)
    return caught.value


def test_an_unknown_key_is_refused_by_name():
    with pytest.raises(InvalidInput) as caught:
        key_named("HELIX_SECRET_KEY")
    assert (caught.value.code, caught.value.field) == ("unknown_key", "HELIX_SECRET_KEY")


@pytest.mark.parametrize(
    ("name", "raw", "reason"),
    [
        ("HELIX_SEARCH_SEMANTIC_WEIGHT", "heavy", "must be a number"),
        ("HELIX_SEARCH_BLEND_BM25_WEIGHT", "1.5", "must be at most 1"),
        ("HELIX_SEARCH_VECTOR_K", "2", "must be at least 5"),
        ("HELIX_SEARCH_VECTOR_K", "7.5", "must be a whole number"),
        ("HELIX_SEARCH_FUSION", "magic", "must be one of: blend, rrf"),
        ("HELIX_API_RATE", "lots", "must be <count>/<second|minute|hour|day>"),
        ("HELIX_LLM_BASE_URL", "ftp://x", "must be an http:// or https:// URL"),
        ("HELIX_LEARNED_RULES_AUTO_SETTLE", "maybe", "must be true or false"),
        ("HELIX_SEARCH_SEMANTIC_WEIGHT", "nan", "must be a finite number"),
        ("HELIX_SEARCH_SEMANTIC_WEIGHT", "  ", "must not be empty"),
        ("HELIX_SEARCH_MODES", "{}", "must be a JSON object with exactly the modes"),
    ],
)
def test_a_bad_value_is_refused_with_the_field_and_the_reason(name, raw, reason):
    error = refusal(name, raw)
    assert error.field == name and error.code == "invalid_value"
    assert reason in error.message


def test_a_mode_preset_out_of_range_is_refused_naming_the_mode():
    modes = {
        name: {"limit": 10, "graph_depth": 2, "freshness_weight": 0.1, "min_score": 0.0}
        for name in ("recent", "contextual", "deep", "full")
    }
    modes["deep"]["graph_depth"] = 9
    error = refusal("HELIX_SEARCH_MODES", modes)
    assert "mode deep: graph_depth" in error.message


def test_good_values_come_back_typed():
    assert key_named("HELIX_SEARCH_VECTOR_K").parse("80") == 80
    assert key_named("HELIX_SEARCH_PPR_WEIGHT").parse(" 0.25 ") == 0.25
    assert key_named("HELIX_LLM_JSON_MODE").parse("off") is False
    assert key_named("HELIX_API_RATE").parse("3/minute") == "3/minute"


def test_every_allowlisted_key_is_a_setting_today(settings):
    assert [name for name in KEYS if not hasattr(settings, name)] == []


def test_the_allowlist_is_every_patchable_registered_setting_with_its_registered_range():
    registered = {name: entry for name, entry in SETTINGS.items() if entry.patchable}
    assert set(KEYS) == set(registered)
    for name, key in KEYS.items():
        entry = registered[name]
        assert (key.kind, key.minimum, key.maximum, tuple(key.choices)) == (
            entry.kind,
            entry.minimum,
            entry.maximum,
            entry.choices,
        ), name


NUMBERS = [entry for entry in SETTINGS.values() if entry.patchable and entry.kind in ("int", "float")]


@pytest.mark.parametrize("entry", NUMBERS, ids=lambda entry: entry.name)
def test_a_patch_and_the_environment_refuse_and_accept_the_same_values(monkeypatch, entry):
    reader = read_int if entry.kind == "int" else read_float
    step = 1 if entry.kind == "int" else 0.5
    for outside in (entry.minimum - step, entry.maximum + step):
        monkeypatch.setenv(entry.name, str(outside))
        with pytest.raises(ImproperlyConfigured, match=entry.name):
            reader(entry.name)
        assert refusal(entry.name, str(outside)).field == entry.name
    for bound in (entry.minimum, entry.maximum):
        monkeypatch.setenv(entry.name, str(bound))
        assert reader(entry.name) == key_named(entry.name).parse(str(bound)) == bound

"""Patches as numbered versions: proposed with a diff, written, restored, applied to settings."""

from __future__ import annotations

import pytest
from django.conf import settings as live_settings

from helixsite.errors import Conflict, InvalidInput
from helixsite.runtime import services
from helixsite.runtime.reload import runtime_refresh
from helixsite.runtime.selectors import config_effective
from helixsite.settings.registry import SETTINGS
from tests.factories import make_principal


@pytest.fixture
def ada(db):
    return make_principal("ada", admin=True).user


def apply(actor, **submitted: str):
    proposal = services.config_propose(submitted=submitted)
    return services.config_version_write(actor=actor, proposal=proposal, base_version=proposal.base_version)


def test_a_patch_is_a_version_with_who_and_the_diff(ada):
    proposal = services.config_propose(submitted={"HELIX_SEARCH_SEMANTIC_WEIGHT": "0.5", "HELIX_SEARCH_RRF_K": "60"})
    assert proposal.diff == [
        {"key": "HELIX_SEARCH_SEMANTIC_WEIGHT", "before": 0.75, "after": 0.5, "after_source": "patch"}
    ], "a value already in force is no change"
    version = services.config_version_write(actor=ada, proposal=proposal, base_version=0)
    assert (version.number, version.actor_name, version.values) == (1, "ada", {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.5})


def test_applied_values_reach_this_process_settings(ada):
    apply(ada, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5", HELIX_API_RATE="3/minute")
    assert live_settings.HELIX_SEARCH_SEMANTIC_WEIGHT == 0.75, "nothing changes before the process looks"
    runtime_refresh(force=True)
    assert (live_settings.HELIX_SEARCH_SEMANTIC_WEIGHT, live_settings.HELIX_API_RATE) == (0.5, "3/minute")


def test_the_default_value_takes_the_key_out_of_the_patch(ada):
    apply(ada, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    second = apply(ada, HELIX_SEARCH_SEMANTIC_WEIGHT="0.75")
    assert second.values == {}
    assert second.diff[0]["after_source"] == "default"


def test_an_earlier_version_is_restored_as_a_new_version(ada):
    apply(ada, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    apply(ada, HELIX_SEARCH_SEMANTIC_WEIGHT="0.9", HELIX_SEARCH_FUSION="rrf")
    proposal = services.config_propose_restore(number=1)
    assert {(d["key"], d["before"], d["after"]) for d in proposal.diff} == {
        ("HELIX_SEARCH_SEMANTIC_WEIGHT", 0.9, 0.5),
        ("HELIX_SEARCH_FUSION", "rrf", "blend"),
    }
    restored = services.config_version_write(actor=ada, proposal=proposal, base_version=2, restored_from=1)
    assert (restored.number, restored.restored_from, restored.values) == (3, 1, {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.5})


def test_a_review_made_before_another_apply_is_refused(ada):
    stale = services.config_propose(submitted={"HELIX_SEARCH_SEMANTIC_WEIGHT": "0.5"})
    apply(ada, HELIX_SEARCH_PPR_WEIGHT="0.1")
    with pytest.raises(Conflict) as caught:
        services.config_version_write(actor=ada, proposal=stale, base_version=stale.base_version)
    assert caught.value.code == "stale_review"


def test_a_key_set_by_the_environment_cannot_be_patched(ada, monkeypatch):
    monkeypatch.setenv("HELIX_SEARCH_FUSION", "blend")
    with pytest.raises(InvalidInput) as caught:
        services.config_propose(submitted={"HELIX_SEARCH_FUSION": "rrf"})
    assert (caught.value.code, caught.value.field) == ("set_by_environment", "HELIX_SEARCH_FUSION")
    row = next(r for r in config_effective() if r.name == "HELIX_SEARCH_FUSION")
    assert (row.source, row.changeable) == ("environment", False)


def test_nothing_to_change_is_refused(ada):
    with pytest.raises(InvalidInput) as caught:
        services.config_propose(submitted={"HELIX_SEARCH_SEMANTIC_WEIGHT": "0.75"})
    assert caught.value.code == "no_change"


def test_the_effective_config_lists_every_documented_setting_with_its_source(ada):
    apply(ada, HELIX_SEARCH_PPR_WEIGHT="0.2")
    rows = {row.name: row for row in config_effective()}
    assert {"HELIX_PORT", "DATABASE_URL", "HELIX_LOG_FORMAT", "HELIX_SEARCH_BM25_B", "HELIX_SEARCH_MODES"} <= set(rows)
    assert (rows["HELIX_SEARCH_PPR_WEIGHT"].value, rows["HELIX_SEARCH_PPR_WEIGHT"].source) == ("0.2", "patch")
    assert (rows["HELIX_SEARCH_BM25_B"].value, rows["HELIX_SEARCH_BM25_B"].source) == ("0.75", "default")
    assert rows["HELIX_PORT"].locked_reason == "read at startup: change it in the environment and restart"
    assert rows["HELIX_SECRET_KEY"].value == "set" and rows["HELIX_SECRET_KEY"].secret
    assert rows["DATABASE_URL"].secret and rows["HELIX_LLM_API_KEY"].value == "unset"
    assert rows["DATABASE_REPLICA_URLS"].secret and rows["DATABASE_REPLICA_URLS"].value == "unset"
    assert (rows["HELIX_CONTEXT_DEFAULT_TOKENS"].value, rows["HELIX_CONTEXT_DEFAULT_TOKENS"].secret) == ("800", False)


def test_the_effective_config_is_the_registry_in_order_each_in_its_section(ada):
    rows = config_effective()
    assert [(row.name, row.section) for row in rows] == [(entry.name, entry.section) for entry in SETTINGS.values()]
    modes = next(row for row in rows if row.name == "HELIX_SEARCH_MODES")
    assert (modes.section, modes.changeable) == ("Read path (search_memory)", True)

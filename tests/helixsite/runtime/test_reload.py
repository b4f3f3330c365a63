"""How a process picks up the stored configuration: one cheap query at most every interval,
the values written onto its settings when the version moved, the providers told what changed."""

from __future__ import annotations

import pytest
from django.conf import settings as live_settings
from django.db import OperationalError

from helixsite.runtime import reload, services
from helixsite.runtime.reload import config_changed, runtime_refresh
from tests.factories import make_principal


@pytest.fixture
def live(settings):
    settings.HELIX_CONFIG_RELOAD = True
    settings.HELIX_CONFIG_CHECK_SECONDS = 0
    return settings


@pytest.fixture
def ada(db):
    return make_principal("ada", admin=True).user


def apply(actor, **submitted: str) -> None:
    proposal = services.config_propose(submitted=submitted)
    services.config_version_write(actor=actor, proposal=proposal, base_version=proposal.base_version)


def test_a_new_version_is_applied_on_the_next_check_and_announced(live, ada):
    heard: list[frozenset[str]] = []
    config_changed.connect(lambda keys, **_: heard.append(keys), weak=False, dispatch_uid="test-heard")
    try:
        runtime_refresh()
        apply(ada, HELIX_SEARCH_IMPORTANCE_WEIGHT="0.3")
        runtime_refresh()
    finally:
        config_changed.disconnect(dispatch_uid="test-heard")
    assert live_settings.HELIX_SEARCH_IMPORTANCE_WEIGHT == 0.3
    assert heard == [frozenset({"HELIX_SEARCH_IMPORTANCE_WEIGHT"})]


def test_a_version_committed_between_the_check_and_the_read_is_logged_under_its_own_number(
    live, ada, monkeypatch, caplog
):
    runtime_refresh()
    state_before = reload.stored_state()
    apply(ada, HELIX_SEARCH_IMPORTANCE_WEIGHT="0.3")  # lands after the check read the state
    monkeypatch.setattr(reload, "stored_state", lambda: (None, *state_before[1:]) if state_before else ())
    with caplog.at_level("INFO", logger="helixsite.runtime.reload"):
        runtime_refresh(force=True)

    assert live_settings.HELIX_SEARCH_IMPORTANCE_WEIGHT == 0.3
    assert "Configuration version 1 applied" in caplog.text and "version 0" not in caplog.text


def test_an_unchanged_version_costs_one_query(live, ada, django_assert_num_queries):
    runtime_refresh()
    with django_assert_num_queries(1):
        runtime_refresh()


def test_within_the_interval_a_process_does_not_ask_again(live, ada, django_assert_num_queries):
    live.HELIX_CONFIG_CHECK_SECONDS = 3600
    runtime_refresh()
    apply(ada, HELIX_SEARCH_IMPORTANCE_WEIGHT="0.3")
    with django_assert_num_queries(0):
        runtime_refresh()
    assert live_settings.HELIX_SEARCH_IMPORTANCE_WEIGHT == 0.05, "picked up at the next check"


def test_turned_off_a_process_never_asks(settings, ada, django_assert_num_queries):
    settings.HELIX_CONFIG_RELOAD = False
    with django_assert_num_queries(0):
        runtime_refresh()


def test_with_the_database_out_of_reach_the_applied_values_stay(live, ada, monkeypatch):
    apply(ada, HELIX_SEARCH_IMPORTANCE_WEIGHT="0.3")
    runtime_refresh()

    def unreachable(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(reload, "stored_state", unreachable)
    runtime_refresh()
    assert live_settings.HELIX_SEARCH_IMPORTANCE_WEIGHT == 0.3

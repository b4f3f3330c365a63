"""Provider keys in the room: set, replaced, cleared; never rendered, returned or audited."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse

from helixsite.runtime.models import Credential
from helixsite.runtime.reload import runtime_reset
from stewardship.models import AuditEntry
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

SECRET = "sk-room-test-0123456789"


@pytest.fixture(autouse=True)
def own_data_dir(settings, tmp_path) -> Iterator[None]:
    settings.HELIX_DATA_DIR = tmp_path
    settings.HELIX_CREDENTIALS_KEY = None
    yield
    runtime_reset()


def set_key(steward, secret: str = SECRET, name: str = "HELIX_LLM_API_KEY"):
    return steward.post(reverse("steward:credential-set", args=[name]), {"secret": secret}, **HTMX)


def test_a_key_set_is_never_shown_again(steward):
    answer = set_key(steward)
    assert answer.status_code == 200 and answer["HX-Trigger"] == "credential-set"
    assert "no-store" in answer["Cache-Control"]
    for page in ("credentials", "config", "config-edit", "audit"):
        assert SECRET not in steward.get(reverse(f"steward:{page}")).content.decode()
    assert SECRET not in answer.content.decode()
    assert "Set</span>: the key ending in" in steward.get(reverse("steward:credentials")).content.decode()
    assert SECRET not in str(list(AuditEntry.objects.values()))
    assert audit_lines("credential.set") == [
        {
            "actor": "ada",
            "target": "credential:HELIX_LLM_API_KEY",
            "before": None,
            "after": {"HELIX_LLM_API_KEY": "set"},
        }
    ]


def test_a_key_cleared_says_cleared(steward):
    set_key(steward)
    answer = steward.post(
        reverse("steward:credential-clear", args=["HELIX_LLM_API_KEY"]), {"confirm": "HELIX_LLM_API_KEY"}, **HTMX
    )
    assert answer.status_code == 200
    assert not Credential.objects.get(name="HELIX_LLM_API_KEY").is_set
    assert audit_lines("credential.clear")[0]["after"] == {"HELIX_LLM_API_KEY": "cleared"}
    assert "cleared on" in answer.content.decode()


def test_an_environment_key_wins_and_is_shown_as_such(steward, monkeypatch):
    monkeypatch.setenv("HELIX_EMBEDDING_API_KEY", "from-the-environment")
    page = steward.get(reverse("steward:credentials")).content.decode()
    assert "Set by the environment" in page and "from-the-environment" not in page
    refused = set_key(steward, name="HELIX_EMBEDDING_API_KEY")
    assert (refused.status_code, inline_error(refused)["code"]) == (400, "set_by_environment")


def test_a_malformed_key_or_an_unknown_name_is_refused(steward):
    refused = set_key(steward, secret="two words")
    assert (refused.status_code, inline_error(refused)["field"]) == (400, "secret")
    unknown = set_key(steward, name="HELIX_SECRET_KEY")
    assert unknown.status_code == 404
    assert not Credential.objects.exists()


def test_clearing_a_key_asks_first_naming_it_by_its_last_characters(steward):
    set_key(steward)
    asked = steward.post(reverse("steward:credential-clear", args=["HELIX_LLM_API_KEY"]), **HTMX).content.decode()

    assert Credential.objects.get(name="HELIX_LLM_API_KEY").is_set, "nothing changes before the confirmation"
    assert audit_lines("credential.clear") == []
    assert 'id="credential-HELIX_LLM_API_KEY-confirming"' in asked
    assert "the key ending in …6789" in asked and SECRET not in asked
    assert 'name="confirm" value="HELIX_LLM_API_KEY"' in asked
    wrong = {"confirm": "HELIX_EMBEDDING_API_KEY"}
    steward.post(reverse("steward:credential-clear", args=["HELIX_LLM_API_KEY"]), wrong, **HTMX)
    assert Credential.objects.get(name="HELIX_LLM_API_KEY").is_set, "a confirmation for another key is none"


def test_the_page_says_when_a_key_is_unused_and_shows_only_a_long_keys_last_four(steward, settings):
    settings.HELIX_LLM = "none"
    settings.HELIX_EMBEDDINGS = "openai"
    set_key(steward)
    set_key(steward, secret="short-key", name="HELIX_EMBEDDING_API_KEY")
    page = steward.get(reverse("steward:credentials")).content.decode()

    assert "Unused while HELIX_LLM is none" in page
    assert 'id="credential-HELIX_EMBEDDING_API_KEY-unused"' not in page
    assert '<code id="credential-HELIX_LLM_API_KEY-fingerprint">…6789</code>' in page
    assert 'id="credential-HELIX_EMBEDDING_API_KEY-fingerprint"' not in page, "too short to show any of it"
    assert "short-key" not in page

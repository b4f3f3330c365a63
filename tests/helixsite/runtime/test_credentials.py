"""Write-only provider keys: encrypted at rest, given to the providers, never given back."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as live_settings

from helixsite.errors import InvalidInput
from helixsite.runtime import services
from helixsite.runtime.models import Credential
from helixsite.runtime.reload import runtime_refresh
from helixsite.runtime.selectors import config_credentials, config_effective
from memory.providers import get_embedder, get_llm, reset_providers
from tests.factories import make_principal
from tests.openai_compatible_server import OpenAICompatibleServer, embedding_answer

SECRET = "sk-test-1234567890abcdef"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def ada(db, credentials_key):
    return make_principal("ada", admin=True).user


def test_a_key_is_stored_encrypted_under_a_private_key_file(ada):
    services.credential_set(actor=ada, name="HELIX_LLM_API_KEY", secret=SECRET)
    row = Credential.objects.get(name="HELIX_LLM_API_KEY")
    assert SECRET not in row.ciphertext and row.ciphertext
    key_file = live_settings.HELIX_DATA_DIR / "credentials_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_the_status_says_set_when_and_by_whom_never_the_key(ada):
    services.credential_set(actor=ada, name="HELIX_LLM_API_KEY", secret=SECRET)
    llm, embedding = config_credentials()
    assert (llm.name, llm.is_set, llm.actor_name, llm.from_environment) == ("HELIX_LLM_API_KEY", True, "ada", False)
    assert not embedding.is_set
    shown = {row.name: row.value for row in config_effective()}
    assert shown["HELIX_LLM_API_KEY"] == "set"
    assert SECRET not in repr(config_credentials()) + repr(config_effective())


def test_the_llm_provider_uses_the_stored_key(ada):
    proposal = services.config_propose(submitted={"HELIX_LLM": "openai"})
    services.config_version_write(actor=ada, proposal=proposal, base_version=0)
    services.credential_set(actor=ada, name="HELIX_LLM_API_KEY", secret=SECRET)
    reset_providers()
    runtime_refresh(force=True)
    try:
        assert get_llm()._client.api_key == SECRET
        services.credential_clear(actor=ada, name="HELIX_LLM_API_KEY")
        runtime_refresh(force=True)
        assert get_llm()._client.api_key == "not-needed", "cleared: the provider is built again without it"
    finally:
        reset_providers()


def test_a_key_in_the_environment_wins_and_cannot_be_set(ada, monkeypatch):
    monkeypatch.setenv("HELIX_EMBEDDING_API_KEY", "from-env")
    with pytest.raises(InvalidInput) as caught:
        services.credential_set(actor=ada, name="HELIX_EMBEDDING_API_KEY", secret=SECRET)
    assert caught.value.code == "set_by_environment"
    assert config_credentials()[1].from_environment


@pytest.mark.parametrize("secret", ["", "two words", "x" * 1001])
def test_a_malformed_key_is_refused(ada, secret):
    with pytest.raises(InvalidInput) as caught:
        services.credential_set(actor=ada, name="HELIX_LLM_API_KEY", secret=secret)
    assert caught.value.field == "secret"


def test_an_unknown_credential_is_refused(ada):
    with pytest.raises(InvalidInput) as caught:
        services.credential_set(actor=ada, name="HELIX_SECRET_KEY", secret=SECRET)
    assert caught.value.field == "name"


def test_a_credentials_key_that_is_not_a_fernet_key_stops_startup_with_one_line():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "helixsite.settings.base", "HELIX_CREDENTIALS_KEY": "hunter2"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1
    assert result.stderr.strip().startswith("Configuration error: HELIX_CREDENTIALS_KEY is not a Fernet key")
    assert "hunter2" not in result.stderr


def test_the_embedding_endpoint_is_called_with_the_stored_key(ada, settings):
    settings.HELIX_EMBEDDINGS = "openai"  # fixed at installation: not a patchable key
    with OpenAICompatibleServer() as endpoint:
        proposal = services.config_propose(submitted={"HELIX_EMBEDDING_BASE_URL": endpoint.base_url})
        services.config_version_write(actor=ada, proposal=proposal, base_version=0)
        services.credential_set(actor=ada, name="HELIX_EMBEDDING_API_KEY", secret=SECRET)
        endpoint.queue("/v1/embeddings", embedding_answer([[0.5] * settings.HELIX_EMBEDDING_DIM]))
        reset_providers()
        runtime_refresh(force=True)
        try:
            get_embedder().embed(["where is the key"], purpose="query")
        finally:
            reset_providers()
    assert endpoint.authorizations == [f"Bearer {SECRET}"]

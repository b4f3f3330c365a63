"""One structured line per request; tokens and secrets never reach the log."""

from __future__ import annotations

import json
import logging

import pytest

from helixsite.log_format import JsonLineFormatter, redact
from rbac.models import Principal
from rbac.services import principal_create, token_issue

pytestmark = pytest.mark.django_db


def test_each_request_logs_one_line_with_status_latency_and_principal(client, caplog):
    agent = principal_create(username="scout", kind=Principal.Kind.AGENT)
    raw = token_issue(user=agent.user, name="t").raw

    with caplog.at_level(logging.INFO, logger="helixsite.request"):
        client.get("/api/v1/whoami?token=" + raw, HTTP_AUTHORIZATION=f"Bearer {raw}")

    records = [r for r in caplog.records if r.name == "helixsite.request"]
    assert len(records) == 1
    line = json.loads(JsonLineFormatter().format(records[0]))
    assert line["method"] == "GET" and line["path"] == "/api/v1/whoami" and line["status"] == 200
    assert line["latency_ms"] > 0
    assert raw not in json.dumps(line), "query strings and headers are not logged"


@pytest.mark.parametrize(
    "text",
    [
        "token hxt_1a2b3c4d_abcdefghijklmnopqrstuvwxyz0123456789",
        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz",
        "api_key=sk-live-abcdefghijklmnop",
        '{"password": "hunter2hunter2"}',
    ],
)
def test_secrets_are_redacted_from_any_log_message(text):
    cleaned = redact(text)

    assert "abcdefghijklmnop" not in cleaned and "hunter2" not in cleaned
    assert "[redacted]" in cleaned


def test_a_host_header_not_allowed_is_one_warning_line_without_a_traceback(client, caplog):
    with caplog.at_level(logging.INFO):
        answer = client.get("/healthz", HTTP_HOST="attacker.example")

    refusals = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert answer.status_code == 400
    assert [(r.levelname, r.exc_info) for r in refusals] == [("WARNING", None)]
    assert "attacker.example" in refusals[0].getMessage()

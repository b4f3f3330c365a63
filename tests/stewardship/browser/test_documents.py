"""The room's documents in a real browser: an accepted document's page says pending, and follows
the worker storing it to complete without a reload (htmx polls its progress)."""

from __future__ import annotations

from unittest import mock

import pytest
from playwright.sync_api import expect

from memory.documents.services import DocumentInput, document_accept
from memory.documents.tasks import document_resume
from rbac.models import Role
from tests.factories import grant, make_agent_with_token, make_workspace
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUNBOOK = "# Runbook\n\nCanary first.\n\n## Rollback\n\nRun helm rollback and page the on-call engineer.\n"


def test_a_document_page_follows_the_worker_from_pending_to_complete(page, live_server, log_in, problems, screenshot):
    person("ada", admin=True)
    writer, _token = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    with mock.patch("memory.documents.services.task_enqueue_after_commit") as queued:  # no worker yet
        accepted = document_accept(actor=writer.user, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK))
    assert queued.call_count == 1
    log_in("ada")

    page.goto(f"{live_server.url}/steward/documents/")
    page.get_by_role("link", name="Runbook").click()
    expect(page.locator("#document-progress")).to_contain_text("pending")
    expect(page.locator("#document-chunks")).to_have_text("0 of 2")
    screenshot("document-pending")

    document_resume(str(accepted.document.pk))  # the worker's task

    expect(page.locator("#document-progress")).to_contain_text("complete", timeout=30_000)
    expect(page.locator("#document-chunks")).to_have_text("2 of 2")
    page.reload()
    expect(page.locator("#document-chunk-list")).to_contain_text("Run helm rollback and page the on-call engineer.")
    screenshot("document")
    assert problems == []

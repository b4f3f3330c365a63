"""The backup vault in a real browser: back up, verify, a restore refused for a wrong phrase and
done for the exact one, each followed on its job page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import expect

from stewardship.vault import services as vault_services
from stewardship.vault.models import Backup, VaultJob
from tests.stewardship.browser.conftest import PASSWORD, person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
GENEROUS_MS = 120_000  # a backup, a test restore, a restore: each takes seconds, on a busy machine more


@pytest.fixture(autouse=True)
def vault_in_tmp(settings, tmp_path):
    settings.HELIX_BACKUP_DIR = tmp_path / "backups"


@pytest.fixture
def sessions_renewed(transactional_db):
    """The restore ends every session on the old database, this thread's own too (the one the
    test database is flushed with at the end): closed once the browser's event loop is gone."""
    yield
    connections.close_all()


def test_back_up_verify_and_restore_with_the_exact_phrase(
    sessions_renewed, page, live_server, log_in, problems, screenshot
):
    person("ada", admin=True)
    log_in("ada")

    page.goto(f"{live_server.url}/steward/backups/")
    expect(page.get_by_role("heading", name="Backups")).to_be_visible()
    page.get_by_role("button", name="Back up now").click()
    expect(page.locator("#job-state")).to_have_text("succeeded", timeout=GENEROUS_MS)
    screenshot("backup-job")
    backup = Backup.objects.get()
    page.locator("#job-backup").click()

    expect(page.locator("#backup-sha256")).to_have_text(backup.sha256)
    page.get_by_role("button", name="Verify").click()
    expect(page.locator("#job-state")).to_have_text("succeeded", timeout=GENEROUS_MS)
    page.locator("#job-backup").click()
    expect(page.locator("#verify-outcome")).to_contain_text("verified")
    screenshot("backup")

    person("mallory", admin=False)  # made after the backup: the restore takes her away
    page.get_by_label(f"Type RESTORE {backup.id} to confirm").fill(f"RESTORE {backup.id[:-1]}")
    page.get_by_role("button", name=f"Restore {backup.id}").click()
    expect(page.locator("#backup-restore-error")).to_contain_text(f"Type exactly RESTORE {backup.id}")
    assert not VaultJob.objects.filter(kind="restore").exists()

    page.get_by_label(f"Type RESTORE {backup.id} to confirm").fill(f"RESTORE {backup.id}")
    page.get_by_role("button", name=f"Restore {backup.id}").click()
    # No session survives a restore (no archive holds one), the restoring admin's own included:
    # the job page, polling, is sent to log in again, and back to the job once logged in.
    expect(page.get_by_role("heading", name="Log in to the room")).to_be_visible(timeout=GENEROUS_MS)
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#job-state")).to_have_text("succeeded", timeout=GENEROUS_MS)
    expect(page.locator("dl.facts")).to_contain_text("safety backup")
    screenshot("restore-job")

    connections.close_all()  # the restore ended the sessions this test had with the old database
    assert not get_user_model().objects.filter(username="mallory").exists()
    assert re.fullmatch(r"/steward/backups/jobs/[0-9a-f-]+/", page.url.removeprefix(live_server.url))
    assert [p for p in problems if not (p.startswith("400 ") and p.endswith("/restore/"))] == []


def test_the_job_page_polls_while_its_job_runs_and_stops_when_it_ends(page, live_server, log_in, problems):
    person("ada", admin=True)
    job = VaultJob.objects.create(kind="backup", backup_id="20260101-000000-abcd", status="running", step="dumping")
    log_in("ada")

    page.goto(f"{live_server.url}/steward/backups/jobs/{job.id}/")
    expect(page.locator("#job-status")).to_have_attribute("data-polling", "true")
    VaultJob.objects.filter(pk=job.pk).update(step="computing the checksum")
    expect(page.locator("#job-step")).to_have_text("computing the checksum", timeout=GENEROUS_MS)
    VaultJob.objects.filter(pk=job.pk).update(status="failed", step="done", error="disk full")

    expect(page.locator("#job-state")).to_have_text("failed", timeout=GENEROUS_MS)
    expect(page.locator("#job-error")).to_have_text("disk full")
    # htmx polls from the element's own hx-trigger: the finished status came without one.
    expect(page.locator("#job-status")).not_to_have_attribute("data-polling", "true")
    expect(page.locator("#job-status[hx-trigger]")).to_have_count(0)
    assert problems == []


def test_back_up_now_while_the_task_queue_is_away_says_so_in_place(page, live_server, log_in, monkeypatch):
    """The room's refusals come with their status: here 503 ``queue_unavailable``. The answer is
    the form's own part with the reason, and the page shows it (htmx leaves 5xx answers unswapped
    unless told otherwise)."""
    monkeypatch.setattr(vault_services, "task_enqueue", lambda *args, **kwargs: None)  # as with Redis away
    person("ada", admin=True)
    log_in("ada")

    page.goto(f"{live_server.url}/steward/backups/")
    page.get_by_role("button", name="Back up now").click()

    refusal = page.locator("#backup-create-error")
    expect(refusal).to_contain_text("The task queue could not be reached; nothing was done.")
    expect(refusal).to_have_attribute("data-code", "queue_unavailable")
    assert Backup.objects.get().status == Backup.Status.FAILED

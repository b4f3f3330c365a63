"""The vault's pages: backing up from the list, the job page that polls only while its job runs,
a backup's page with its manifest, the download, and the guarded delete and restore refusing
what they must, inline, with the field."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client

from helixsite.agents.catalogue import tool_classes
from helixsite.agents.mcp.tools import tool_call
from helixsite.restore_marker import restore_begin, restore_end
from memory.api.read import SearchMemoryApi
from memory.api.write import AddMemoryApi
from stewardship.vault import archives
from stewardship.vault import restore as restore_module
from stewardship.vault.models import Backup, VaultJob
from stewardship.vault.services import backup_now
from tests.factories import bearer_client, make_agent_with_token, make_principal
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(autouse=True)
def vault_in_tmp(settings, tmp_path):
    settings.HELIX_BACKUP_DIR = tmp_path / "backups"
    return settings.HELIX_BACKUP_DIR


@pytest.fixture
def taken(ada) -> Backup:
    return backup_now(actor=ada.user)


def test_back_up_now_leads_to_the_job_page_which_stops_polling_when_done(steward):
    answer = steward.post("/steward/backups/", **HTMX)

    job = VaultJob.objects.get()
    assert answer.status_code == 200 and answer["HX-Redirect"] == f"/steward/backups/jobs/{job.id}/"
    page = steward.get(answer["HX-Redirect"]).content.decode()
    assert 'id="job-state" class="status-succeeded">succeeded<' in page
    assert "hx-trigger" not in page, "a finished job's page does not poll"
    backup = Backup.objects.get()
    listed = steward.get("/steward/backups/").content.decode()
    assert f'href="/steward/backups/{backup.id}/"' in listed and "Backups</a>" in listed
    assert audit_lines("backup.create")[0]["target"] == f"backup:{backup.id}"


def test_a_running_jobs_status_polls_every_second(steward):
    job = VaultJob.objects.create(kind="backup", backup_id="20260101-000000-abcd", status="running", step="dumping")

    fragment = steward.get(f"/steward/backups/jobs/{job.id}/", **HTMX).content.decode()

    assert 'hx-trigger="every 1s"' in fragment and "<html" not in fragment
    assert 'id="job-step">dumping<' in fragment


def test_a_backups_page_shows_its_manifest_and_the_download_streams_the_archive(steward, taken):
    page = steward.get(f"/steward/backups/{taken.id}/").content.decode()

    assert f'<code id="backup-sha256">{taken.sha256}</code>' in page
    assert "Type <code>RESTORE " + taken.id + "</code> to confirm" in page
    download = steward.get(f"/steward/backups/{taken.id}/download/")
    assert download.status_code == 200 and download.streaming
    assert download["Content-Disposition"] == f'attachment; filename="helixsite-{taken.id}.dump"'
    assert download["Cache-Control"] == "no-store"
    assert b"".join(download.streaming_content) == archives.archive_path(taken.id).read_bytes()


def test_an_unknown_or_malformed_backup_is_a_404(steward):
    assert steward.get("/steward/backups/20260101-000000-abcd/").status_code == 404
    assert steward.get("/steward/backups/..%2F..%2Fsecret_key/download/").status_code == 404


def test_a_wrong_restore_phrase_is_refused_inline_with_the_field(steward, taken):
    answer = steward.post(f"/steward/backups/{taken.id}/restore/", {"phrase": f"restore {taken.id}"}, **HTMX)

    assert answer.status_code == 400
    assert inline_error(answer) == {
        "code": "confirmation",
        "field": "phrase",
        "message": f"Type exactly RESTORE {taken.id} to restore this backup.",
    }
    assert not VaultJob.objects.filter(kind="restore").exists()
    assert steward.post(f"/steward/backups/{taken.id}/restore/", {}, **HTMX).status_code == 400


def test_an_archive_from_newer_code_is_refused(steward, taken):
    manifest = archives.manifest_read(taken.id)
    manifest["migrations"].append("vault.9999_from_the_future")
    archives.manifest_write(taken.id, manifest)

    answer = steward.post(f"/steward/backups/{taken.id}/restore/", {"phrase": f"RESTORE {taken.id}"}, **HTMX)

    assert answer.status_code == 409 and inline_error(answer)["code"] == "archive_newer"
    assert "vault.9999_from_the_future" in inline_error(answer)["message"]


def test_an_external_database_is_told_what_to_do_instead(steward, taken, monkeypatch):
    monkeypatch.setattr(restore_module.embedded_db, "uses_embedded", lambda: False)

    page = steward.get(f"/steward/backups/{taken.id}/").content.decode()
    answer = steward.post(f"/steward/backups/{taken.id}/restore/", {"phrase": f"RESTORE {taken.id}"}, **HTMX)

    assert 'id="restore-external"' in page and "restore-phrase" not in page
    assert answer.status_code == 409 and inline_error(answer)["code"] == "restore_unavailable"


def test_delete_needs_the_id_typed(steward, taken):
    refused = steward.post(f"/steward/backups/{taken.id}/delete/", {"confirm": "yes"}, **HTMX)
    assert refused.status_code == 400 and inline_error(refused)["field"] == "confirm"

    answer = steward.post(f"/steward/backups/{taken.id}/delete/", {"confirm": taken.id}, **HTMX)

    assert answer["HX-Redirect"] == "/steward/backups/"
    assert not Backup.objects.exists()


def test_the_list_says_when_each_backup_was_taken(steward):
    taken_at = datetime(2026, 3, 4, 5, 6, 7, 890_000, tzinfo=UTC)
    Backup.objects.create(id="20260304-050607-abcd", kind="manual", status="ready", created_at=taken_at)

    page = steward.get("/steward/backups/").content.decode()

    headers = re.findall(r"<th>([^<]+)</th>", page[page.index('<table class="backups">') :])
    row = re.search(r'<tr id="backup-20260304-050607-abcd">.*?</tr>', page, re.S).group(0)
    cells = re.findall(r"<td>(.*?)</td>", row, re.S)
    assert headers[:2] == ["backup", "taken"]
    assert cells[1] == '<time datetime="2026-03-04T05:06:07.890000+00:00">2026-03-04 05:06:07</time>'


def test_the_observatory_shows_a_failed_scheduled_backup_in_red(steward):
    Backup.objects.create(id="20260101-000000-abcd", kind="scheduled", status="failed", error="disk full")

    page = steward.get("/steward/").content.decode()

    assert '<tr><th scope="row">backups</th>\n        <td><span class="bad">failing</span></td>' in page
    assert "backups failing" in page


def test_writes_are_refused_with_503_while_a_restore_runs_and_searches_go_on(transactional_db):
    principal, issued = make_agent_with_token("writer")
    api = bearer_client(issued.raw)
    restore_begin(job_id="test")
    try:
        write = api.post("/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": "hi"}, format="json")
        search = api.post(
            "/api/v1/search_memory", {"actor_id": "writer", "user_id": "bob", "query": "hi"}, format="json"
        )
        room_post = Client().post("/steward/backups/")
    finally:
        restore_end(restored=False)

    assert write.status_code == 503 and write.json()["error"]["code"] == "restore_in_progress"
    assert write["Retry-After"] == "5"
    assert search.status_code != 503
    assert room_post.status_code == 503
    after = api.post("/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": "hi"}, format="json")
    assert after.status_code != 503


def test_people_who_are_not_global_admins_cannot_download(taken):
    outsider = make_principal("outsider")
    client = Client()
    client.force_login(outsider.user)

    assert client.get(f"/steward/backups/{taken.id}/download/").status_code == 403
    assert Client().get(f"/steward/backups/{taken.id}/download/").status_code == 302


def test_mcp_write_tools_are_refused_while_a_restore_runs_and_searches_go_on(transactional_db):
    principal, issued = make_agent_with_token("writer")
    arguments = {"actor_id": "writer", "user_id": "bob"}
    restore_begin(job_id="test")
    try:
        write = tool_call(
            tool=AddMemoryApi, arguments={**arguments, "message": "hi"}, authenticate=lambda: issued.token
        )
        search = tool_call(
            tool=SearchMemoryApi, arguments={**arguments, "query": "hi"}, authenticate=lambda: issued.token
        )
    finally:
        restore_end(restored=False)

    assert write.is_error and write.structured_content["error"]["code"] == "restore_in_progress"
    assert search.structured_content.get("error", {}).get("code") != "restore_in_progress"


def test_during_a_restore_each_tool_is_served_or_refused_alike_over_rest_and_mcp(transactional_db):
    """Whether a tool is refused follows its kind alone, on both transports: a tool that only
    reads (get_memory, list_memories…) goes on over REST's POST as over MCP; every other one is
    refused. The tools come from the catalogue, so a new one needs no list edited here."""
    principal, issued = make_agent_with_token("writer")
    api = bearer_client(issued.raw)
    refused: dict[str, tuple[bool, bool]] = {}
    restore_begin(job_id="test")
    try:
        for tool in tool_classes():
            rest = api.post(f"/api/v1/{tool.tool}", {"actor_id": "writer"}, format="json")
            mcp = tool_call(tool=tool, arguments={"actor_id": "writer"}, authenticate=lambda: issued.token)
            refused[tool.tool] = (
                rest.status_code == 503 and rest.json()["error"]["code"] == "restore_in_progress",
                (mcp.structured_content.get("error") or {}).get("code") == "restore_in_progress",
            )
    finally:
        restore_end(restored=False)

    expected = {tool.tool: (not tool.reads, not tool.reads) for tool in tool_classes()}
    assert refused == expected
    assert refused["get_memory"] == (False, False) and refused["add_memory"] == (True, True)

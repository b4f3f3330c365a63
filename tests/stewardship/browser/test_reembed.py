"""The embeddings page in a real browser: a re-embed followed while its run works (the page polls),
the switch seen when it ends (polling stops, the restart to make is named), and the command to
start another one written in place."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from memory.embedding_space import embedding_space_ensure
from memory.models import EmbeddingSpace, ReembedJob
from memory.reembed.jobs import RunLock
from tests.stewardship.browser.conftest import person

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
GENEROUS_MS = 30_000  # a poll every 2 s, on a busy machine later


def test_a_reembed_is_followed_until_it_switches_then_the_next_command_is_written(
    page, live_server, log_in, problems, screenshot
):
    person("ada", admin=True)
    embedding_space_ensure()
    job = ReembedJob.objects.create(
        provider="openai", model="words-8", dimension=8, base_url="http://127.0.0.1:8080/v1",
        source="local:all-MiniLM-L6-v2 (384-d)", phase="embedding", done=2, total=10,
    )  # fmt: skip
    log_in("ada")

    with RunLock():  # as a run working on it in another process holds it
        page.goto(f"{live_server.url}/steward/")
        page.locator("summary", has_text="Operations").click()  # its menu in the navigation
        page.get_by_role("link", name="Embeddings").click()
        expect(page.get_by_role("heading", name="Embeddings", exact=True)).to_be_visible()
        expect(page.locator("#reembed")).to_have_attribute("data-polling", "true")
        expect(page.locator("#reembed-rows")).to_have_text("2 of 10")
        ReembedJob.objects.filter(pk=job.pk).update(done=6, updated_at=timezone.now())
        expect(page.locator("#reembed-rows")).to_have_text("6 of 10", timeout=GENEROUS_MS)
        screenshot("reembed-running")
        ReembedJob.objects.filter(pk=job.pk).update(
            status="done", phase="", done=10, switch_ms=5.0, finished_at=timezone.now()
        )
        EmbeddingSpace.objects.filter(pk=1).update(provider="openai", model="words-8", dimension=8)

    expect(page.locator("#reembed-state")).to_have_text("done", timeout=GENEROUS_MS)
    expect(page.locator("#space-mismatch")).to_contain_text("restart the server with HELIX_EMBEDDINGS=openai")
    expect(page.locator("#reembed[hx-trigger]")).to_have_count(0)
    page.get_by_label("provider").select_option("local")
    page.get_by_role("button", name="Write the command").click()
    expect(page.locator("#reembed-command")).to_have_text(".venv/bin/python manage.py reembed --provider local")
    assert page.url == f"{live_server.url}/steward/embeddings/?provider=local&model=&dimension=&base_url="
    screenshot("reembed")
    assert problems == []

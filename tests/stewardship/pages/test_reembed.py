"""The embeddings page: the model the stored vectors are of and the one this server embeds with,
the newest re-embed (polled only while a run works), and the exact ``manage.py reembed`` command
to start, resume or give one up, checked as the command checks it; global admins only."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from memory.embedding_space import embedding_space_ensure
from memory.models import EmbeddingSpace, ReembedJob
from memory.reembed.jobs import RunLock
from rbac.models import Principal
from tests.factories import make_principal
from tests.stewardship.pages.conftest import HTMX, inline_error

pytestmark = pytest.mark.django_db

URL = "/steward/embeddings/"
ENDPOINT = "http://127.0.0.1:8080/v1"


@pytest.fixture(autouse=True)
def installed(db) -> EmbeddingSpace:
    return embedding_space_ensure()


def a_job(**fields) -> ReembedJob:
    values = {
        "provider": "openai",
        "model": "words-8",
        "dimension": 8,
        "base_url": ENDPOINT,
        "source": "local:all-MiniLM-L6-v2 (384-d)",
        "phase": "embedding",
        "done": 120,
        "total": 480,
    }
    return ReembedJob.objects.create(**{**values, **fields})


def text_of(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</', html, re.S)
    assert found, f"#{element_id} is on the page"
    return unescape(found.group(1)).strip()


def test_the_page_shows_the_stored_model_and_that_no_reembed_ran(steward):
    page = steward.get(URL)

    html = page.content.decode()
    assert page.status_code == 200
    assert text_of(html, "space-installed") == "local:all-MiniLM-L6-v2 (384-d)"
    assert text_of(html, "space-configured") == "local:all-MiniLM-L6-v2 (384-d)"
    assert '<span class="ok">the stored vectors\' model</span>' in html and 'id="space-mismatch"' not in html
    assert text_of(html, "reembed-state") == "idle"
    assert "Write the command" in html and "hx-trigger" not in html, "nothing runs: no polling"
    assert f'<a href="{URL}" aria-current="page">Embeddings</a>' in html


def test_the_room_links_to_it_from_its_navigation(steward):
    assert f'<a href="{URL}">Embeddings</a>' in steward.get("/steward/backups/").content.decode()


def test_a_running_job_shows_its_progress_and_polls_while_its_run_works(steward):
    a_job()

    with RunLock():
        fragment = steward.get(URL, **HTMX).content.decode()

    assert "<html" not in fragment and 'hx-trigger="every 2s"' in fragment and 'data-polling="true"' in fragment
    assert text_of(fragment, "reembed-state") == "running"
    assert text_of(fragment, "reembed-phase") == "embedding"
    assert text_of(fragment, "reembed-rows") == "120 of 480"
    assert '<progress max="480" value="120">' in fragment
    assert text_of(fragment, "reembed-target") == "openai:words-8 (8-d)"
    assert text_of(fragment, "reembed-status-command") == ".venv/bin/python manage.py reembed --status"
    assert "Write the command" not in fragment, "no second run while one works"


def test_an_interrupted_job_gives_the_commands_that_resume_it_or_give_it_up(steward):
    a_job(error="stopped half way")

    html = steward.get(URL).content.decode()

    assert text_of(html, "reembed-state") == "interrupted" and "hx-trigger" not in html
    assert text_of(html, "reembed-error") == "stopped half way"
    assert text_of(html, "reembed-resume") == (
        f".venv/bin/python manage.py reembed --provider openai --model words-8 --dimension 8 --base-url {ENDPOINT}"
    )
    assert text_of(html, "reembed-abort") == ".venv/bin/python manage.py reembed --abort"


def test_after_the_switch_a_server_on_the_old_model_is_told_what_to_restart_with(steward):
    a_job(status="done", phase="", done=480, switch_ms=6.4, finished_at=timezone.now())
    EmbeddingSpace.objects.filter(pk=1).update(provider="openai", model="words-8", dimension=8)

    html = steward.get(URL).content.decode()

    assert text_of(html, "reembed-state") == "done"
    assert text_of(html, "reembed-switch") == "the tables were locked 6 ms"
    assert "restart the server with HELIX_EMBEDDINGS=openai HELIX_EMBEDDING_MODEL=words-8" in unescape(html)
    assert 'id="space-mismatch"' in html and "503 <code>embedding_space_mismatch</code>" in html


@pytest.mark.parametrize(
    ("asked", "command"),
    [
        ({"provider": "local"}, ".venv/bin/python manage.py reembed --provider local"),
        (
            {"provider": "openai", "model": "text-embedding-3-small", "dimension": "1536", "no_switch": "on"},
            ".venv/bin/python manage.py reembed --provider openai --model text-embedding-3-small --dimension 1536 "
            "--base-url https://api.openai.com/v1 --no-switch",
        ),
        (
            {"provider": "openai", "model": "nomic", "dimension": "768", "base_url": "http://gpu:8000/v1?x=1&y=2"},
            ".venv/bin/python manage.py reembed --provider openai --model nomic --dimension 768 "
            "--base-url 'http://gpu:8000/v1?x=1&y=2'",
        ),
    ],
)
def test_the_command_to_start_one_is_written_exactly(steward, asked, command):
    answer = steward.get(URL, asked, **HTMX)

    assert answer.status_code == 200
    assert text_of(answer.content.decode(), "reembed-command") == command
    assert not ReembedJob.objects.exists(), "nothing is started from the page"


@pytest.mark.parametrize(
    ("asked", "field", "message"),
    [
        ({"provider": "cohere"}, "provider", "Select a valid choice."),
        ({"provider": "openai", "dimension": "8"}, "model", "--model is required with --provider openai"),
        ({"provider": "openai", "model": "m"}, "dimension", "--dimension is required with --provider openai"),
        ({"provider": "openai", "model": "m", "dimension": "x"}, "dimension", "Enter a whole number."),
        ({"provider": "openai", "model": "m", "dimension": "4096"}, "dimension", "--dimension must be from 1 to 2000"),
        ({"provider": "openai", "model": "m", "dimension": "8", "base_url": "ftp://x"}, "base_url", "is not an http"),
        ({"provider": "openai", "model": "m" * 201, "dimension": "8"}, "model", "at most 200 characters"),
        ({"provider": "local", "model": "bge-small"}, "model", "The local provider runs all-MiniLM-L6-v2 only"),
    ],
)
def test_a_target_the_command_would_refuse_is_refused_inline_naming_the_field(steward, asked, field, message):
    answer = steward.get(URL, asked, **HTMX)

    assert answer.status_code == 400
    error = inline_error(answer)
    assert error["field"] == field and message in error["message"]


def test_another_model_while_a_job_is_unfinished_is_refused_as_the_command_would_be(steward):
    a_job()

    answer = steward.get(URL, {"provider": "local"}, **HTMX)

    assert answer.status_code == 409
    error = inline_error(answer)
    assert error["code"] == "reembed_unfinished"
    assert error["message"].startswith("A re-embed to openai:words-8 (8-d) is unfinished (120 of 480 rows)")


def test_an_anonymous_visitor_is_sent_to_log_in():
    answer = Client().get(URL)

    assert answer.status_code == 302 and answer["Location"] == f"/steward/login/?next={URL}"


def test_a_principal_who_is_not_a_global_admin_is_refused():
    browser = Client()
    browser.force_login(make_principal("carol", kind=Principal.Kind.HUMAN).user)

    answer = browser.get(URL)

    assert answer.status_code == 403 and b"This room is for global admins" in answer.content
    assert b"local:all-MiniLM-L6-v2" not in answer.content

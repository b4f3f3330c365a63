"""The run log and the ledger: every add_memory call with its stages, filtered and paged."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from memory.models import Inference, IngestRun, Memory
from rbac.models import Principal, Role, Workspace
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(client):
    client.force_login(make_principal("ada", kind=Principal.Kind.HUMAN, admin=True).user)
    return client


@pytest.fixture
def writer():
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return bearer_client(issued.raw)


def _add(api, message: str, **extra) -> int:
    body = {"actor_id": "writer", "user_id": "bob", "message": message, **extra}
    return api.post("/api/v1/add_memory", body, format="json").status_code


def _run_links(html: str) -> list[str]:
    return re.findall(r'href="/steward/runs/([0-9a-f-]{36})/"', html)


def test_a_run_shows_its_message_stages_and_result(steward, writer):
    assert _add(writer, "Bob's build server is called ravel-07.") == 200
    run = IngestRun.objects.get()

    html = steward.get(f"/steward/runs/{run.id}/").content.decode()

    assert "Bob&#x27;s build server is called ravel-07." in html
    for stage in ("extract", "embed", "candidates", "decide", "apply"):
        assert f'id="stage-{stage}"' in html
    assert "succeeded" in html and "ADD" in html, "the decisions and the result are shown"


def test_a_run_names_its_workspace_once_and_its_times_to_the_second(steward, writer):
    assert _add(writer, "Bob's build server is called ravel-07.") == 200
    run = IngestRun.objects.get()

    html = steward.get(f"/steward/runs/{run.id}/").content.decode()

    domain = re.search(r"<dt>write domain</dt><dd>(.*?)</dd>", html, re.S).group(1)
    assert domain.startswith("team") and run.rbac_scope in domain, "the workspace, and its write domain apart"
    started = re.search(r"<dt>started</dt><dd>(.*?)</dd>", html, re.S).group(1)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+", started), started


def test_a_run_in_the_default_domain_does_not_say_default_twice(steward):
    run = IngestRun.objects.create(rbac_scope="default", workspace=Workspace.objects.get(slug="default"))

    html = steward.get(f"/steward/runs/{run.id}/").content.decode()

    assert re.search(r"<dt>write domain</dt><dd>(.*?)</dd>", html, re.S).group(1).strip() == "default"


def _row_of(html: str, run: IngestRun) -> str:
    return re.search(rf'<tr>\s*<td><a href="/steward/runs/{run.id}/">.*?</tr>', html, re.S).group(0)


def _cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", " ", cell).split() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_the_list_shows_each_runs_first_words_and_what_each_statement_became(steward, writer):
    assert _add(writer, "Bob is allergic to peanuts. Bob moved to Lyon.") == 200
    assert _add(writer, "I'm not allergic to peanuts after all, the test was negative.") == 200
    long = "Bob keeps a notebook of every train he has taken since the spring of the year he moved to Lyon."
    assert _add(writer, long) == 200
    first, retraction, chatty = IngestRun.objects.order_by("started_at")

    html = steward.get("/steward/runs/").content.decode()

    assert _cells(_row_of(html, first))[1:3] == [
        ["Bob", "is", "allergic", "to", "peanuts.", "Bob", "moved", "to", "Lyon."],
        ["ADD", "ADD"],
    ]
    assert _cells(_row_of(html, retraction))[2] == ["CONTRADICT"], "the retraction contradicts what it takes back"
    words = _cells(_row_of(html, chatty))[1]
    assert words[:12] == long.split()[:12] and words[-1] == "…" and len(words) == 13, "only its first words"


def test_a_run_links_the_memories_it_wrote_and_names_an_erased_one_as_gone(steward, writer):
    assert _add(writer, "Bob is allergic to peanuts. Bob moved to Lyon.") == 200
    assert _add(writer, "I'm not allergic to peanuts after all, the test was negative.") == 200
    first, retraction = IngestRun.objects.order_by("started_at")
    allergy, city = first.result["memory_ids"]
    Memory.objects.filter(pk=city).delete()  # as an owner's erasure deletes it

    html = steward.get(f"/steward/runs/{first.id}/").content.decode()
    taking_back = steward.get(f"/steward/runs/{retraction.id}/").content.decode()

    written = re.search(r'<tr id="atom-0">.*?</tr>', html, re.S).group(0)
    assert "Bob is allergic to peanuts." in written and f'href="/steward/memories/{allergy}/"' in written
    assert ">ADD<" in written and ">new<" in written
    gone = re.search(r'<tr id="atom-1">.*?</tr>', html, re.S).group(0)
    assert f"/steward/memories/{city}/" not in gone and f"gone: <code>{city}</code> was erased since" in gone
    row = re.search(r'<tr id="atom-0">.*?</tr>', taking_back, re.S).group(0)
    (new,) = retraction.result["memory_ids"]
    assert ">CONTRADICT<" in row and f'href="/steward/memories/{new}/"' in row
    assert f'href="/steward/memories/{allergy}/"' in row and "retracted" in row, "what it took back, and its state"


def test_runs_filter_by_status_and_principal_and_page_with_a_cursor(steward, writer):
    for n in range(5):
        assert _add(writer, f"Bob ordered part number {n} for the lathe.") == 200
    IngestRun.objects.create(user_id="bob", message="x", message_hash="0" * 64, status=IngestRun.Status.FAILED)

    failed = steward.get("/steward/runs/", {"status": "failed"}).content.decode()
    by_writer = steward.get("/steward/runs/", {"principal": "writer"}).content.decode()

    assert len(_run_links(failed)) == 1
    assert len(_run_links(by_writer)) == 5

    from stewardship.pages import runs

    runs.PAGE_SIZE, size = 2, runs.PAGE_SIZE
    try:
        seen, url, params = [], "/steward/runs/", {"principal": "writer"}
        while True:
            fragment = steward.get(url, params, headers={"HX-Request": "true"}).content.decode()
            seen += _run_links(fragment)
            more = re.search(r'hx-get="(/steward/runs/\?[^"]+)"', fragment)
            if not more:
                break
            url, params = more.group(1).replace("&amp;", "&"), {}
        assert "<html" not in fragment, "an htmx request gets only the rows"
    finally:
        runs.PAGE_SIZE = size
    newest_first = list(
        IngestRun.objects.filter(actor__username="writer").order_by("-started_at").values_list("id", flat=True)
    )
    assert seen == [str(i) for i in newest_first], "every run once, newest first, across pages"


def test_a_bad_filter_is_named_and_left_out(steward, writer):
    assert _add(writer, "Bob likes rye bread.") == 200

    html = steward.get("/steward/runs/", {"since": "2024-02-30T10:00", "status": "nonsense"}).content.decode()

    assert "Since:" in html and "Status:" in html and "left out of the filter" in html
    assert len(_run_links(html)) == 1


def test_a_cursor_that_does_not_parse_starts_from_the_top(steward, writer):
    assert _add(writer, "Bob likes rye bread.") == 200

    for cursor in ("garbage", "9" * 40, "2026-01-01T00:00:00+00:00~not-a-uuid", "x" * 500):
        response = steward.get("/steward/runs/", {"cursor": cursor})
        assert response.status_code == 200 and len(_run_links(response.content.decode())) == 1
    assert steward.get("/steward/ledger/", {"cursor": "9" * 40}).status_code == 200
    assert steward.get("/steward/audit/", {"cursor": "-1"}).status_code == 200


def test_the_ledger_lists_provider_calls_and_filters_by_run(steward):
    run = IngestRun.objects.create(user_id="bob", message="x", message_hash="0" * 64)
    now = timezone.now()
    common = {"provider": "openai", "model": "m", "purpose": "extract", "latency_ms": 12.0}
    Inference.objects.create(kind="chat", ok=True, run_id=run.id, input_tokens=120, output_tokens=30, **common)
    Inference.objects.create(kind="chat", ok=False, error="timeout", created_at=now - timedelta(minutes=1), **common)

    everything = steward.get("/steward/ledger/").content.decode()
    of_run = steward.get("/steward/ledger/", {"run": str(run.id)}).content.decode()
    failed = steward.get("/steward/ledger/", {"outcome": "failed"}).content.decode()

    assert everything.count('id="call-') == 2
    assert of_run.count('id="call-') == 1 and "120 / 30" in of_run
    assert failed.count('id="call-') == 1 and "timeout" in failed

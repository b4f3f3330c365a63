"""The observatory shows what is stored, each part's health, and agent activity with latency,
counted from real calls over the API."""

from __future__ import annotations

import re

import pytest

from memory.models import Memory
from rbac.models import Principal, Role
from tests.factories import bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(client):
    ada = make_principal("ada", kind=Principal.Kind.HUMAN, admin=True)
    client.force_login(ada.user)
    return client


def _count(html: str, label: str) -> int:
    found = re.search(rf"<dt>{re.escape(label)}</dt><dd>(\d+)</dd>", html)
    assert found, f"no count labelled {label!r}"
    return int(found.group(1))


def test_counts_follow_what_agents_wrote_and_superseded(steward, django_capture_on_commit_callbacks):
    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)
    for message in ("Bob lives in Lisbon.", "Bob drinks green tea every morning.", "Bob moved to Porto."):
        answer = api.post(
            "/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": message}, format="json"
        )
        assert answer.status_code == 200, answer.content

    html = steward.get("/steward/").content.decode()

    assert _count(html, "memories, current") == Memory.objects.current().count() == 2
    assert _count(html, "superseded") == 1
    assert _count(html, "agents") == 1 and _count(html, "people") == 1
    assert _count(html, "active tokens") == 1
    assert "SUPERSEDES" in html


def test_activity_counts_calls_and_shows_their_latency(steward):
    reader, issued = make_agent_with_token("reader")
    grant(reader, make_workspace("team"), Role.VIEWER)
    api = bearer_client(issued.raw)
    search = {"actor_id": "reader", "user_id": "bob", "query": "tea"}
    answers = [api.post("/api/v1/search_memory", search, format="json").status_code for _ in range(3)]
    answers.append(api.post("/api/v1/search_memory", {**search, "query": ""}, format="json").status_code)
    assert answers == [200, 200, 200, 400]

    html = steward.get("/steward/").content.decode()

    row = re.search(r"searches, last hour</th><td>(\d+)</td><td>(\d+)</td><td>([^<]+)</td><td>([^<]+)</td>", html)
    assert row, "no searches row"
    assert (int(row.group(1)), int(row.group(2))) == (4, 1)
    assert row.group(3).startswith("≤ ") and row.group(4).startswith("≤ ")
    assert 'id="activity-series"' in html


def test_health_names_each_part_and_the_queue(steward):
    html = steward.get("/steward/").content.decode()

    for part in ("database", "vector", "migrations", "embedder", "worker", "queue", "LLM provider"):
        assert f'<th scope="row">{part}</th>' in html
    assert "none (rules)" in html


def test_the_chart_series_has_every_hour_of_the_day_with_its_calls_and_p95():
    from datetime import timedelta

    from django.utils import timezone

    from helixsite.agents.models import CallMinute
    from helixsite.agents.usage import BOUNDS_MS
    from stewardship.metrics import activity_series

    now = timezone.now()
    two_hours_ago = now.replace(second=0, microsecond=0) - timedelta(hours=2)
    slow = [0] * (len(BOUNDS_MS) + 1)
    slow[BOUNDS_MS.index(200)] = 19
    slow[BOUNDS_MS.index(1000)] = 1
    fast = [5] + [0] * len(BOUNDS_MS)
    CallMinute.objects.create(minute=two_hours_ago, tool="add_memory", calls=20, errors=0, buckets=slow)
    CallMinute.objects.create(minute=two_hours_ago, tool="search_memory", calls=5, errors=0, buckets=fast)
    CallMinute.objects.create(minute=two_hours_ago, tool="agent_heartbeat", calls=99, errors=0, buckets=fast)

    series = activity_series(now=now)

    assert len(series["hours"]) == 24 and series["hours"] == sorted(series["hours"])
    assert (series["writes"][-3], series["searches"][-3]) == (20, 5), "heartbeats are neither"
    assert series["p95_ms"][-3] == 200.0, "the 24th of 25 calls took ≤ 200 ms"
    assert sum(series["writes"]) == 20 and series["p95_ms"][-1] is None


def test_counts_are_read_from_the_newest_snapshot_with_its_age_and_counted_again_on_asking(steward):
    from stewardship.models import CountsSnapshot
    from stewardship.tasks import counts_refresh

    writer, issued = make_agent_with_token("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    api = bearer_client(issued.raw)

    def add(message: str) -> None:
        answer = api.post(
            "/api/v1/add_memory", {"actor_id": "writer", "user_id": "bob", "message": message}, format="json"
        )
        assert answer.status_code == 200, answer.content

    add("Bob lives in Lisbon.")
    first = steward.get("/steward/").content.decode()  # no snapshot yet: the first visit counts
    add("Bob drinks green tea every morning.")
    again = steward.get("/steward/").content.decode()
    counted = steward.post("/steward/count/").content.decode()
    add("Bob keeps bees on the roof.")
    counts_refresh()  # the worker's schedule
    scheduled = steward.get("/steward/").content.decode()

    assert _count(first, "memories, current") == 1
    assert _count(again, "memories, current") == 1, "read from the snapshot, not counted at each visit"
    assert re.search(r"Counted \d+\xa0minutes? ago, at \d\d:\d\d:\d\d, in \d+ ms", again)
    assert _count(counted, "memories, current") == 2 and 'id="counts"' in counted
    assert _count(scheduled, "memories, current") == 3
    assert CountsSnapshot.objects.count() == 3


def test_the_schedule_counts_every_five_minutes_and_keeps_the_last_hour():
    from django_q.models import Schedule

    from stewardship.models import CountsSnapshot
    from stewardship.services import COUNTS_KEPT
    from stewardship.tasks import counts_refresh

    for _ in range(COUNTS_KEPT + 3):
        counts_refresh()

    schedule = Schedule.objects.get(func="stewardship.tasks.counts_refresh")
    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == ("I", 5, -1)
    assert CountsSnapshot.objects.count() == COUNTS_KEPT


def test_counting_now_is_a_post_of_a_global_admin(client, steward):
    assert steward.get("/steward/count/").status_code == 405
    client.logout()
    assert client.post("/steward/count/").status_code in (302, 403)

"""The control room's heaviest pages on a large installation: the observatory (every count, the
health checks, 24 h of activity) and a memories search as a chosen principal, rendered in full
through Django's test client as a logged-in global admin.

The corpus is search_latency's (``BENCH_ROOM_SIZE``, default 300000 memories, loaded once and
kept); a day of agent activity is recorded as the usage counter would (every minute, five tools)."""

from __future__ import annotations

import os
import random
from datetime import timedelta

from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from bench.search_latency import _in_space, _queries, _top_up
from bench.setup import prepared
from bench.timing import percentiles, sample_ms
from helixsite.agents.models import CallMinute
from helixsite.agents.usage import BOUNDS_MS
from rbac.models import Principal
from rbac.services import principal_create

RUNS = 30
TOOLS = ("add_memory", "search_memory", "get_memory", "list_memories", "agent_heartbeat")


def run() -> None:
    size = int(os.environ.get("BENCH_ROOM_SIZE", "300000"))
    actor = prepared(workspace=f"bench-search-{size}", principal=f"bench-search-{size}")
    _top_up(actor, size)
    _a_day_of_activity()
    call_command("collectstatic", interactive=False, verbosity=0)  # pages name the hashed static files
    browser = Client(HTTP_HOST="localhost")
    browser.force_login(_steward())
    queries = iter(_queries(RUNS + 3, seed=size))

    def observatory() -> None:
        assert browser.get("/steward/").status_code == 200

    def search() -> None:
        user_id, query = next(queries)
        params = {"as": actor.username, "query": query, "user_id": user_id}
        assert browser.get("/steward/memories/", params).status_code == 200

    print(f"room pages at {_in_space(size).count():,} memories in the space, {RUNS} requests each:")
    print(f"  observatory            {percentiles(sample_ms(observatory, runs=RUNS))} ms")
    print(f"  memories search page   {percentiles(sample_ms(search, runs=RUNS))} ms")


def _steward():
    found = Principal.objects.filter(user__username="bench-steward").select_related("user").first()
    if found is None:
        found = principal_create(username="bench-steward", kind=Principal.Kind.HUMAN, is_global_admin=True)
    return found.user


def _a_day_of_activity() -> None:
    """Every minute of the last 24 hours, five tools, as if agents had been busy all day."""
    now = timezone.now().replace(second=0, microsecond=0)
    CallMinute.objects.filter(minute__gte=now - timedelta(days=1, minutes=1)).delete()
    rng = random.Random(5)
    rows = []
    for step in range(24 * 60):
        for tool in TOOLS:
            buckets = [0] * (len(BOUNDS_MS) + 1)
            for _ in range(calls := rng.randint(5, 60)):
                buckets[min(int(rng.expovariate(0.25)), len(BOUNDS_MS))] += 1
            rows.append(
                CallMinute(minute=now - timedelta(minutes=step), tool=tool, calls=calls, errors=0, buckets=buckets)
            )
    CallMinute.objects.bulk_create(rows, batch_size=2000, ignore_conflicts=True)

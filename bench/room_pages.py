"""The control room's heaviest pages on a large installation: the observatory (every count, the
health checks, 24 h of activity), a memories search as a chosen principal, the owners list (first
page, a search, a later page by cursor), an owner's page (the corpus's largest owner, and an owner
holding ``BENCH_OWNER_MEMORIES``), the documents list and a document's page (a hundred sections of
that owner's), rendered in full through Django's test client as a logged-in global admin.

The corpus is search_latency's (``BENCH_ROOM_SIZE``, default 300000 memories, loaded once and
kept), plus the large owner's memories in a workspace of their own (loaded once and kept, a tenth
of them forgotten); a day of agent activity is recorded as the usage counter would (every minute,
five tools)."""

from __future__ import annotations

import os
import random
from datetime import timedelta

from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from bench.corpus import statements
from bench.search_latency import _in_space, _queries, _top_up
from bench.setup import prepared
from bench.timing import percentiles, sample_ms
from helixsite.agents.models import CallMinute
from helixsite.agents.usage import BOUNDS_MS
from memory.documents.models import Chunk, Document
from memory.documents.services import DocumentInput, document_add
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory
from rbac.models import Principal
from rbac.selectors import user_get_by_name
from rbac.services import principal_create
from stewardship.owner_counts import owner_counts

RUNS = 30
TOOLS = ("add_memory", "search_memory", "get_memory", "list_memories", "agent_heartbeat")
LARGE_OWNER, LARGE_SPACE = "bench-owner-large", "bench-room-owner"


def run() -> None:
    size = int(os.environ.get("BENCH_ROOM_SIZE", "300000"))
    actor = prepared(workspace=f"bench-search-{size}", principal=f"bench-search-{size}")
    _top_up(actor, size)
    large = int(os.environ.get("BENCH_OWNER_MEMORIES", "10000"))
    _large_owner(large)
    document = _large_owner_document()
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

    def page(path: str, params: dict | None = None):
        def get() -> None:
            assert browser.get(path, params or {}).status_code == 200

        return get

    everyone = owner_counts()
    largest = max((row for row in everyone if row.user_id != LARGE_OWNER), key=lambda row: row.held)
    later = everyone[len(everyone) // 2]
    print(f"room pages at {_in_space(size).count():,} memories in the space, {Memory.objects.count():,} in all,")
    print(f"{len({row.user_id for row in everyone}):,} owners, {RUNS} requests each:")
    print(f"  observatory            {percentiles(sample_ms(observatory, runs=RUNS))} ms")
    print(f"  memories search page   {percentiles(sample_ms(search, runs=RUNS))} ms")
    print(f"  owners, first page     {percentiles(sample_ms(page('/steward/owners/'), runs=RUNS))} ms")
    print(f"  owners, a search       {percentiles(sample_ms(page('/steward/owners/', {'q': 'user07'}), runs=RUNS))} ms")
    cursor = {"cursor": f"{later.workspace_id or 0}~{later.user_id}"}
    print(f"  owners, a later page   {percentiles(sample_ms(page('/steward/owners/', cursor), runs=RUNS))} ms")
    for owner, held in ((largest.user_id, largest.held), (LARGE_OWNER, large)):
        timed = percentiles(sample_ms(page(f"/steward/owners/{owner}/"), runs=RUNS))
        print(f"  owner page, {owner} ({held:,} memories)   {timed} ms")
    filtered = page(f"/steward/owners/{LARGE_OWNER}/", {"state": "forgotten"})
    print(f"  owner page, {LARGE_OWNER}, forgotten only   {percentiles(sample_ms(filtered, runs=RUNS))} ms")
    print(f"  documents, first page  {percentiles(sample_ms(page('/steward/documents/'), runs=RUNS))} ms")
    chunks = Chunk.objects.filter(document=document).count()
    timed = percentiles(sample_ms(page(f"/steward/documents/{document.pk}/"), runs=RUNS))
    print(f"  a document's page ({chunks} chunks)   {timed} ms")


def _large_owner(count: int) -> None:
    """One owner holding ``count`` memories in a workspace of their own, loaded once and kept."""
    writer = prepared(workspace=LARGE_SPACE, principal="bench-owner-writer")
    have = Memory.objects.filter(user_id=LARGE_OWNER).count()
    if have < count:
        texts = [text for _, text in statements(count, seed=11)][have:]
        rows = [ImportRow(i, LARGE_OWNER, t, "fact", LARGE_SPACE, {}, None, "") for i, t in enumerate(texts)]
        import_rows(actor=writer, rows=rows, batch_size=1000, rebuild_index="never")
        mine = Memory.objects.filter(user_id=LARGE_OWNER).order_by("created_at").values("pk")
        Memory.objects.filter(pk__in=mine[: count // 10]).update(deleted_at=timezone.now())


def _large_owner_document() -> Document:
    """A document of the large owner, about a hundred pages' worth of sections, stored once and kept."""
    title = "bench room document"
    found = Document.objects.live().filter(user_id=LARGE_OWNER, title=title).first()
    if found is not None:
        return found
    writer = user_get_by_name(username="bench-owner-writer")
    sections = [f"# Part {n}\n\n" + " ".join(text for _, text in statements(12, seed=n)) for n in range(100)]
    given = DocumentInput(user_id=LARGE_OWNER, title=title, text="\n\n".join(sections))
    return document_add(actor=writer, given=given, group_id=LARGE_SPACE).document


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

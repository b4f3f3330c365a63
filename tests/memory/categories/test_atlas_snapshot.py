"""The atlas snapshot: exact counts per category (ancestors included), the newest memories with
their paths, caps, the trees drawn from it, and the worker's schedule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from django_q.models import Schedule

from memory.categories.models import AtlasSnapshot
from memory.categories.selectors import AtlasFilter, atlas_snapshot_latest, atlas_tree
from memory.categories.services import atlas_snapshot_take
from memory.categories.tasks import atlas_refresh

pytestmark = pytest.mark.django_db


def test_the_snapshot_counts_every_filed_memory_under_its_categories_and_their_ancestors(filed):
    snapshot = atlas_snapshot_take()

    counts = {c["path"]: c["count"] for c in snapshot.categories}
    assert counts["work"] == 2 and counts["work/infrastructure"] == 2 and counts["travel"] == 1
    assert snapshot.memory_total == 5 and snapshot.category_total == len(counts)
    assert len(snapshot.memories) == 5
    first = snapshot.memories[0]
    assert set(first) == {"id", "text", "owner", "ws", "paths", "updated"}


def test_a_forgotten_memory_leaves_the_next_snapshot(filed):
    assert filed.stranger.call("forget_memory", memory_id=filed.ids["secret"]).status_code == 200

    counts = {c["path"]: c["count"] for c in atlas_snapshot_take().categories}

    assert "travel" not in counts


@override_settings(HELIX_ATLAS_MAX_CATEGORIES=2, HELIX_ATLAS_MAX_MEMORIES=3, HELIX_ATLAS_KEEP_SNAPSHOTS=1)
def test_the_snapshot_keeps_the_largest_categories_the_newest_memories_and_one_old_snapshot(filed):
    atlas_snapshot_take()
    snapshot = atlas_snapshot_take()

    # Four categories hold two memories each; ties go by path.
    assert [(c["path"], c["count"]) for c in snapshot.categories] == [("preferences", 2), ("preferences/food", 2)]
    assert len(snapshot.memories) == 3 and snapshot.memory_total == 5
    assert AtlasSnapshot.objects.count() == 1


def test_the_latest_snapshot_is_read(filed):
    atlas_snapshot_take()
    newest = atlas_snapshot_take()

    assert atlas_snapshot_latest().id == newest.id


def test_the_task_takes_a_snapshot_and_the_schedule_runs_it_every_five_minutes(filed):
    atlas_refresh()

    assert AtlasSnapshot.objects.count() == 1
    schedule = Schedule.objects.get(func="memory.categories.tasks.atlas_refresh")
    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == ("I", 5, -1)


def snapshot_of(categories: list[tuple[str, int, str]], memories: list[dict] | None = None) -> AtlasSnapshot:
    return AtlasSnapshot(
        memory_total=sum(n for p, n, _ in categories if "/" not in p),
        categories=[{"path": p, "count": n, "newest": newest} for p, n, newest in categories],
        memories=memories or [],
    )


NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_the_tree_nests_paths_and_colours_by_freshness():
    snapshot = snapshot_of(
        [
            ("work", 3, NOW.isoformat()),
            ("work/infrastructure", 2, NOW.isoformat()),
            ("travel", 1, (NOW - timedelta(days=30)).isoformat()),
        ]
    )

    tree = atlas_tree(snapshot=snapshot, where=AtlasFilter(), now=NOW)

    work, travel = tree.nodes
    assert (work["path"], work["value"], work["freshness"]) == ("work", 3, 1.0)
    assert [c["path"] for c in work["children"]] == ["work/infrastructure"]
    assert travel["freshness"] == pytest.approx(0.368, abs=0.001) and "children" not in travel
    assert (tree.shown_categories, tree.sampled) == (3, False)


def test_a_focus_keeps_its_subtree_and_a_cut_parent_hangs_children_on_the_nearest_kept_ancestor():
    snapshot = snapshot_of([("work", 3, NOW.isoformat()), ("work/infrastructure/dns", 1, NOW.isoformat())])

    tree = atlas_tree(snapshot=snapshot, where=AtlasFilter(focus="work"), now=NOW)

    assert [c["path"] for c in tree.nodes[0]["children"]] == ["work/infrastructure/dns"]
    assert atlas_tree(snapshot=snapshot, where=AtlasFilter(focus="travel"), now=NOW).nodes == []


def test_memory_filters_count_over_the_kept_memories():
    memories = [
        {
            "id": "1",
            "text": "Bob deploys",
            "owner": "bob",
            "ws": [1],
            "paths": ["work/infrastructure"],
            "updated": NOW.isoformat(),
        },
        {
            "id": "2",
            "text": "Carol eats ramen",
            "owner": "carol",
            "ws": [2],
            "paths": ["food"],
            "updated": NOW.isoformat(),
        },
        {
            "id": "3",
            "text": "Bob cooks ramen",
            "owner": "bob",
            "ws": [1, 2],
            "paths": ["food"],
            "updated": NOW.isoformat(),
        },
    ]
    snapshot = snapshot_of([("work", 1, NOW.isoformat())], memories)

    def counts(**where) -> dict[str, int]:
        tree = atlas_tree(snapshot=snapshot, where=AtlasFilter(**where), now=NOW)
        assert tree.sampled
        return {p: n for p, n in _flatten(tree.nodes)}

    assert counts(workspace_id=1) == {"work": 1, "work/infrastructure": 1, "food": 1}
    assert counts(owner="carol") == {"food": 1}
    assert counts(query="RAMEN") == {"food": 2}


def _flatten(nodes):
    for node in nodes:
        yield node["path"], node["value"]
        yield from _flatten(node.get("children", []))


def test_an_empty_installation_snapshots_nothing(db):
    snapshot = atlas_snapshot_take()

    assert (snapshot.categories, snapshot.memories, snapshot.memory_total) == ([], [], 0)
    assert snapshot.taken_at <= timezone.now()

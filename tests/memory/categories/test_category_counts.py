"""The kept category counts (memory.categories.counts) equal a count over the rows themselves,
for every reader and owner, through a generated run of every change a memory or a filing can go
through: filed, filed again under an overlapping path, unfiled, superseded, restored, forgotten,
seen by another workspace, given to another owner, erased in either order, and filed before its
memory was written in the same transaction."""

from __future__ import annotations

import io
import random
import uuid
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from memory.categories import counts
from memory.categories.models import CategoryCount, CategoryCountDelta, Filing
from memory.categories.services import category_ensure
from memory.erasure.services import owner_erase
from memory.models import Memory
from tests.factories import make_principal, unit_vector

pytestmark = pytest.mark.django_db

PATHS = ["work", "work/infra", "work/hiring", "work/infra/dns", "health/allergies", "travel"]
OWNERS = ["alice", "bob", "carol"]
VISIBILITIES = [[1], [2], [1, 2], [3], []]
READERS = [None, [1], [2], [1, 2], [3], [4]]


def expected(readable: list[int] | None, user_id: str | None, under: str | None = None) -> dict[str, int]:
    """Counted in Python from the rows: the rule the counts keep."""
    tally: Counter[str] = Counter()
    memories = Memory.objects.filter(deleted_at__isnull=True, valid_to__isnull=True)
    for memory in memories.prefetch_related("filings__category"):
        if readable is not None and not set(readable) & set(memory.visible_in):
            continue
        if user_id is not None and memory.user_id != user_id:
            continue
        paths = {p for filing in memory.filings.all() for p in filing.category.lineage}
        tally.update(p for p in paths if under is None or p.startswith(under + "/"))
    return dict(tally)


def kept(readable: list[int] | None, user_id: str | None, under: str | None = None) -> dict[str, int]:
    rows = counts.category_counts(readable=readable, user_id=user_id, under=under, limit=None, offset=0)
    assert all(newest is not None for _, _, newest in rows)
    return {path: n for path, n, _ in rows}


def assert_kept_equals_counted() -> None:
    for readable in READERS:
        for owner in [None, *OWNERS]:
            assert kept(readable, owner) == expected(readable, owner), (readable, owner)
    assert kept([1, 2], None, "work") == expected([1, 2], None, "work")


def totals() -> set[tuple]:
    rows = CategoryCount.objects.values_list("visibility", "user_id", "path", "memories")
    return {(tuple(visibility), *rest) for visibility, *rest in rows}


class World:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.author = make_principal("writer").user
        self.categories = category_ensure(scope="default", paths=PATHS)
        self.n = 0

    def memory(self, *, id: uuid.UUID | None = None) -> Memory:
        self.n += 1
        return Memory.objects.create(
            id=id or uuid.uuid4(),
            content=f"memory {self.n}",
            content_key=f"k{self.n}",
            user_id=self.rng.choice(OWNERS),
            author=self.author,
            rbac_scope="default",
            visible_in=self.rng.choice(VISIBILITIES),
            embedding=unit_vector(self.n),
        )

    def file(self, memory_id: uuid.UUID, paths: list[str]) -> None:
        Filing.objects.bulk_create(
            [Filing(memory_id=memory_id, category=self.categories[p], method="rules") for p in paths],
            ignore_conflicts=True,
        )

    def some_paths(self) -> list[str]:
        return self.rng.sample(PATHS, self.rng.randint(1, 3))

    def step(self) -> None:
        rng = self.rng
        existing = list(Memory.objects.values_list("id", flat=True))
        action = rng.choice(
            ["add", "add", "add", "filed_first", "refile", "unfile", "supersede", "restore", "forget", "share"]
            + ["reown", "erase", "erase_memory_first", "fold"]
        )
        if action == "add" or not existing:
            self.file(self.memory().id, self.some_paths())
            return
        target = Memory.objects.get(pk=rng.choice(existing))
        if action == "filed_first":
            fresh = uuid.uuid4()
            with transaction.atomic():  # the filings' key to the memory is checked at commit
                self.file(fresh, self.some_paths())
                self.memory(id=fresh)
        elif action == "refile":
            self.file(target.id, self.some_paths())
        elif action == "unfile":
            Filing.objects.filter(pk__in=list(target.filings.values_list("pk", flat=True))[:1]).delete()
        elif action in ("supersede", "restore", "forget", "share", "reown"):
            change = {
                "supersede": {"valid_to": "2026-01-01T00:00:00Z"},
                "restore": {"valid_to": None, "deleted_at": None},
                "forget": {"deleted_at": "2026-01-01T00:00:00Z"},
                "share": {"visible_in": sorted({*target.visible_in, rng.choice([1, 2, 3])})},
                "reown": {"user_id": rng.choice(OWNERS)},
            }[action]
            Memory.objects.filter(pk=target.pk).update(**change)
        elif action == "erase":
            target.delete()  # the filings first, as the ORM deletes
        elif action == "erase_memory_first":
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("DELETE FROM memory_memory WHERE id = %s", [target.id])
                cursor.execute("DELETE FROM categories_filing WHERE memory_id = %s", [target.id])
        elif action == "fold":
            counts.counts_fold()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_counts_equal_the_rows_through_every_change(seed):
    world = World(seed)
    for n in range(60):
        world.step()
        if n % 15 == 14:
            assert_kept_equals_counted()
    assert_kept_equals_counted()

    counts.counts_fold(wait=True)

    assert not CategoryCountDelta.objects.exists()
    assert_kept_equals_counted()


def test_a_recount_writes_what_was_kept():
    world = World(4)
    for _ in range(40):
        world.step()
    counts.counts_fold(wait=True)
    before = totals()
    assert before

    counts.counts_recount()

    assert totals() == before


def test_a_memory_filed_under_two_paths_of_one_branch_counts_once_under_their_ancestor():
    world = World(5)
    memory = world.memory()
    world.file(memory.id, ["work/infra/dns", "work/hiring"])
    world.file(memory.id, ["work/infra"])

    assert kept(None, None) == {"work": 1, "work/infra": 1, "work/infra/dns": 1, "work/hiring": 1}


def test_an_erased_owner_leaves_no_count_naming_them():
    world = World(6)
    for _ in range(5):
        memory = world.memory()
        Memory.objects.filter(pk=memory.pk).update(user_id="dana")
        world.file(memory.id, ["travel"])
    counts.counts_fold(wait=True)
    assert CategoryCount.objects.filter(user_id="dana").exists()

    owner_erase(user_id="dana")

    assert not CategoryCount.objects.filter(user_id="dana").exists()
    assert not CategoryCountDelta.objects.filter(user_id="dana").exists()
    assert "travel" not in kept(None, None)


def test_the_recount_command_counts_afresh():
    world = World(7)
    for _ in range(20):
        world.step()
    CategoryCountDelta.objects.all().delete()  # counts lost, as a hand edit would lose them
    out = io.StringIO()

    call_command("recount_categories", stdout=out)

    assert "counts written" in out.getvalue()
    assert_kept_equals_counted()

"""Enrichment files every new memory; categories belong to the write domain they were made in."""

from __future__ import annotations

import pytest

from memory.categories.models import Category, Filing
from memory.categories.services import memories_file
from memory.ingest.enrich import enrich_run
from memory.models import Memory
from rbac.models import Role
from tests.factories import grant, make_workspace

pytestmark = pytest.mark.django_db


def paths_of(memory_id: str) -> list[str]:
    return sorted(Category.objects.filter(filings__memory_id=memory_id).values_list("path", flat=True))


def test_a_new_memory_is_filed_by_the_rules(add):
    result = add("I am allergic to peanuts.")

    (memory_id,) = result["memory_ids"]
    assert "health/allergies" in paths_of(memory_id)
    assert Filing.objects.filter(memory_id=memory_id).first().method == "rules"


def test_every_atom_of_a_message_is_filed(add):
    result = add("I deploy the staging cluster with Terraform. My favourite food is ramen.")

    filed = {memory_id: paths_of(memory_id) for memory_id in result["memory_ids"]}
    assert len(filed) == 2
    assert sorted(p for paths in filed.values() for p in paths) == ["preferences/food", "work/infrastructure"]


def test_a_nested_category_has_its_parents(add):
    add("I deploy the staging cluster with Terraform.")

    leaf = Category.objects.get(path="work/infrastructure")
    assert leaf.parent.path == "work" and leaf.parent.parent is None
    assert (leaf.depth, leaf.lineage, leaf.name) == (2, ["work", "work/infrastructure"], "infrastructure")


def test_enrichment_run_twice_files_nothing_more(add, team):
    result = add("I am allergic to peanuts.")
    before = Filing.objects.count()

    enrich_run(run_id=result["run_id"])

    assert Filing.objects.count() == before
    assert Category.objects.filter(path="health").count() == 1


def test_categories_are_kept_apart_per_write_domain(add, team):
    other = make_workspace("other")
    grant(team["writer"].principal, other, Role.WORKER)

    add("I am allergic to peanuts.")
    add("I am allergic to peanuts.", group_id="other")

    scopes = sorted(Category.objects.filter(path="health/allergies").values_list("rbac_scope", flat=True))
    assert scopes == sorted([f"rbac:group:{team['workspace'].id}", f"rbac:group:{other.id}"])


def test_filing_an_unknown_memory_does_nothing(db):
    assert memories_file(memory_ids=["7d0f8a36-2a4f-4c55-9d6e-6c1c7a0b1f00"]) == {}
    assert not Memory.objects.exists()

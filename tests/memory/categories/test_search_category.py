"""search_memory(category=…): recall within a category and below it, never beyond visibility."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=["few", "many"])
def category_size(request, settings):
    """Every test twice: a category of few memories is read from its filings; with the bound at
    0 every category is large, and each candidate row is probed for a filing instead."""
    if request.param == "many":
        settings.HELIX_SEARCH_EXACT_ROWS = 0


def found(caller, **params) -> list[str]:
    response = caller.call("search_memory", **params)
    assert response.status_code == 200, response.json()
    return [r["id"] for r in response.json()["results"]]


def test_a_category_narrows_the_results(filed_for_search):
    everything = found(filed_for_search.viewer, user_id="bob", query="Bob")
    infrastructure = found(filed_for_search.viewer, user_id="bob", query="Bob", category="work/infrastructure")

    assert filed_for_search.ids["allergy"] in everything
    assert sorted(infrastructure) == sorted([filed_for_search.ids["deploy"], filed_for_search.ids["dns"]])


def test_a_parent_category_holds_its_children(filed_for_search):
    assert sorted(found(filed_for_search.viewer, user_id="bob", query="Bob", category="Work")) == sorted(
        [filed_for_search.ids["deploy"], filed_for_search.ids["dns"]]
    )


def test_a_category_of_another_workspace_finds_nothing(filed_for_search):
    assert found(filed_for_search.viewer, user_id="bob", query="secret trip Oslo", category="travel") == []
    assert found(filed_for_search.stranger, user_id="bob", query="secret trip Oslo", category="travel") == [
        filed_for_search.ids["secret"]
    ]


def test_a_category_narrows_a_search_across_owners(filed_for_search):
    assert sorted(found(filed_for_search.viewer, scope="all", query="Bob", category="work")) == sorted(
        [filed_for_search.ids["deploy"], filed_for_search.ids["dns"]]
    )


def test_an_unknown_category_finds_nothing(filed_for_search):
    assert found(filed_for_search.viewer, user_id="bob", query="Bob", category="gardening") == []


@pytest.mark.parametrize("category", ["///", "a/b/c/d/e", "x" * 201])
def test_a_category_that_is_no_path_is_a_400_naming_it(filed_for_search, category):
    response = filed_for_search.viewer.call("search_memory", user_id="bob", query="Bob", category=category)

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "category"

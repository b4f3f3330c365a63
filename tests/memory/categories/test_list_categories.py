"""list_categories over REST: a category is seen only through memories the caller can see."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def listed(caller, **params) -> dict[str, int]:
    response = caller.call("list_categories", **params)
    assert response.status_code == 200, response.json()
    return {c["path"]: c["memory_count"] for c in response.json()["categories"]}


def test_a_reader_of_the_workspace_sees_its_categories_with_counts(filed):
    seen = listed(filed.viewer)

    assert seen["work"] == 2 and seen["work/infrastructure"] == 2
    assert seen["health/allergies"] == 1 and seen["preferences/food"] == 2


def test_categories_of_another_workspace_never_show(filed):
    assert "travel" not in listed(filed.writer)
    assert listed(filed.stranger) == {"travel": 1}


def test_an_outsider_sees_no_category(filed):
    assert listed(filed.outsider) == {}


def test_a_global_admin_sees_every_category(filed):
    seen = listed(filed.admin)

    assert seen["travel"] == 1 and seen["work/infrastructure"] == 2


def test_owner_and_parent_narrow_the_list(filed):
    assert listed(filed.viewer, user_id="carol") == {"preferences": 1, "preferences/food": 1}
    assert listed(filed.viewer, parent="Work") == {"work/infrastructure": 2}


def test_an_answer_describes_each_category(filed):
    response = filed.viewer.call("list_categories", method="get", parent="work")

    (category,) = response.json()["categories"]
    assert {k: category[k] for k in ("path", "name", "parent", "depth", "memory_count")} == {
        "path": "work/infrastructure",
        "name": "infrastructure",
        "parent": "work",
        "depth": 2,
        "memory_count": 2,
    }
    assert category["last_updated"]


def test_pages_follow_the_cursor(filed):
    first = filed.viewer.call("list_categories", limit=2).json()
    second = filed.viewer.call("list_categories", limit=2, cursor=first["next_cursor"]).json()

    assert first["count"] == 2 and first["next_cursor"] == 2
    assert not {c["path"] for c in first["categories"]} & {c["path"] for c in second["categories"]}


def test_a_forgotten_memory_no_longer_counts(filed):
    forgotten = filed.writer.call("forget_memory", memory_id=filed.ids["allergy"])
    assert forgotten.status_code == 200

    assert "health" not in listed(filed.viewer)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"parent": "!!!"}, "parent"),
        ({"parent": "a/b/c/d/e"}, "parent"),
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"cursor": -1}, "cursor"),
        ({"parent": "x" * 201}, "parent"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(filed, params, field):
    response = filed.viewer.call("list_categories", **params)

    assert response.status_code == 400
    assert response.json()["error"]["field"] == field

"""The category atlas page: the snapshot's picture with its filters, the drill-down into a
category's memories (paged), refusals with the field, and who may enter."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import unquote

import pytest
from django.test import Client

from memory.categories.models import AtlasSnapshot
from memory.categories.services import atlas_snapshot_take, memories_file
from memory.models import Edge, EdgeType, Memory
from rbac.models import Principal, Role
from rbac.policy import write_domain_resolve
from stewardship.pages import atlas as atlas_page
from tests.factories import grant, make_memory, make_principal, make_workspace
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db
URL = "/steward/atlas/"


@pytest.fixture
def library(db) -> dict[str, str]:
    """Memories of two workspaces, filed by the rules, and a snapshot of them."""
    ids = {}
    for slug, owner, texts in (
        ("team", "bob", ["Bob deploys the staging cluster with Terraform.", "Bob moved the DNS servers."]),
        ("lab", "carol", ["Carol's favourite food is ramen.", "Carol books a flight to Oslo."]),
    ):
        workspace = make_workspace(slug)
        writer = make_principal(f"{slug}-writer")
        grant(writer, workspace, Role.WORKER)
        domain = write_domain_resolve(actor=writer.user, group_id=slug)
        for text in texts:
            kind = "preference" if "favourite" in text else "fact"
            memory = make_memory(author=writer, domain=domain, user_id=owner, content=text, memory_type=kind)
            ids[text] = str(memory.id)
    memories_file(memory_ids=list(ids.values()))
    atlas_snapshot_take()
    return ids


def picture(response) -> dict[str, int]:
    """The picture's boxes as the page hands them to the chart: path → memory count."""
    found = re.search(
        r'<script id="atlas-data" type="application/json">(.*?)</script>', response.content.decode(), re.S
    )
    if found is None:
        return {}
    boxes: dict[str, int] = {}

    def walk(nodes):
        for node in nodes:
            boxes[node["path"]] = node["value"]
            walk(node.get("children", []))

    walk(json.loads(unescape(found.group(1))))
    return boxes


def drilled(response) -> list[str]:
    return re.findall(r'<a href="/steward/memories/[0-9a-f-]{36}/">([^<]*)</a>', response.content.decode())


def test_the_atlas_is_in_the_room_navigation(steward, library):
    response = steward.get(URL)

    assert response.status_code == 200
    assert '<a href="/steward/atlas/" aria-current="page">Atlas</a>' in response.content.decode()


def test_the_picture_holds_every_category_with_its_count(steward, library):
    boxes = picture(steward.get(URL))

    assert boxes["work"] == 2 and boxes["work/infrastructure"] == 2
    assert boxes["travel"] == 1 and boxes["preferences/food"] == 1


def test_without_a_snapshot_the_page_says_so(steward, db):
    response = steward.get(URL)

    assert response.status_code == 200 and "No snapshot yet" in response.content.decode()


def test_without_a_snapshot_the_page_offers_to_take_one_where_the_picture_would_be(steward, db):
    html = steward.get(URL).content.decode()

    empty = html[html.index('<div id="atlas-body"') : html.index('id="atlas-drill-section"')]
    assert "No snapshot yet: take one." in empty
    assert 'hx-post="/steward/atlas/refresh/"' in empty and "Take one now" in empty
    assert "No category matches these filters" not in html


@pytest.mark.parametrize("query", [{}, {"owner": "bob"}])
def test_a_snapshot_taken_before_anything_was_filed_is_not_a_filter_matching_nothing(steward, db, query):
    """The worker takes its first snapshot as it starts, usually before the first memory is filed."""
    taken = atlas_snapshot_take()

    html = steward.get(URL, query).content.decode()

    assert "No category matches these filters" not in html
    assert "No snapshot of filed memories yet: take one." in html
    assert f'<time datetime="{taken.taken_at.isoformat()}">' in html, "the page says when the empty one was taken"
    assert 'hx-post="/steward/atlas/refresh/"' in html and "Take one now" in html
    assert picture(steward.get(URL, query)) == {}


def test_filters_that_match_nothing_say_so(steward, library):
    html = steward.get(URL, {"owner": "nobody"}).content.decode()

    assert "No category matches these filters." in html and "Take one now" not in html


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"workspace": "lab"}, {"travel", "preferences", "preferences/food"}),
        ({"owner": "bob"}, {"work", "work/infrastructure"}),
        ({"focus": "Work"}, {"work", "work/infrastructure"}),
        ({"q": "ramen"}, {"preferences", "preferences/food"}),
    ],
)
def test_filters_narrow_the_picture(steward, library, query, expected):
    response = steward.get(URL, query, **HTMX, HTTP_HX_TARGET="atlas-body")

    assert response.status_code == 200
    assert set(picture(response)) == expected
    assert "<html" not in response.content.decode()  # the fragment, not the page


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"workspace": "nowhere"}, "workspace"),
        ({"focus": "///"}, "focus"),
        ({"focus": "a/b/c/d/e"}, "focus"),
        ({"category": "!!!"}, "category"),
        ({"owner": "x" * 201}, "owner"),
        ({"q": "bad\x00"}, "q"),
    ],
)
def test_a_bad_filter_is_a_400_naming_the_field(steward, library, query, field):
    for headers in ({}, {**HTMX, "HTTP_HX_TARGET": "atlas-body"}):
        response = steward.get(URL, query, **headers)

        assert response.status_code == 400
        assert inline_error(response)["field"] == field


def test_the_drill_down_lists_a_category_and_its_children(steward, library):
    response = steward.get(URL, {"category": "work"}, **HTMX, HTTP_HX_TARGET="atlas-drill")

    assert response.status_code == 200
    assert sorted(drilled(response)) == [
        "Bob deploys the staging cluster with Terraform.",
        "Bob moved the DNS servers.",
    ]


def test_the_drill_down_says_which_memory_is_retracted_and_by_what(steward, library):
    deploys = Memory.objects.get(pk=library["Bob deploys the staging cluster with Terraform."])
    moved = Memory.objects.get(pk=library["Bob moved the DNS servers."])
    Memory.objects.filter(pk=moved.pk).update(facets={"change": ["retracts"]})
    Edge.objects.create(source=moved, target=deploys, edge_type=EdgeType.CONTRADICTS, confidence=0.9)

    html = steward.get(URL, {"category": "work"}, **HTMX, HTTP_HX_TARGET="atlas-drill").content.decode()

    row = next(r for r in html.split("<tr") if f"/steward/memories/{deploys.id}/" in r)
    assert 'data-state="retracted"' in row and f"/steward/memories/{moved.id}/" in row
    other = next(r for r in html.split("<tr") if "Bob moved the DNS servers." in r)
    assert "data-state" not in other, "a current memory needs no word in a list"


def test_the_drill_down_keeps_the_filters(steward, library):
    response = steward.get(URL, {"category": "preferences", "owner": "bob"}, **HTMX, HTTP_HX_TARGET="atlas-drill")

    assert drilled(response) == []
    assert "No live memory in" in response.content.decode()


def test_the_drill_down_pages_with_a_cursor(steward, library, monkeypatch):
    monkeypatch.setattr(atlas_page, "PAGE_SIZE", 1)
    first = steward.get(URL, {"category": "work"}, **HTMX, HTTP_HX_TARGET="atlas-drill")
    cursor = unquote(unescape(re.search(r"cursor=([^\"&]+)", first.content.decode()).group(1)))

    second = steward.get(URL, {"category": "work", "cursor": cursor}, **HTMX, HTTP_HX_TARGET="atlas-more-1-x")

    assert len(drilled(first)) == 1 and len(drilled(second)) == 1
    assert drilled(first) != drilled(second)
    assert "cursor=" not in second.content.decode()  # the last page


def test_a_full_page_with_a_category_opens_its_drill_down(steward, library):
    response = steward.get(URL, {"category": "travel"})

    assert drilled(response) == ["Carol books a flight to Oslo."]
    assert picture(response)


def test_a_snapshot_is_taken_on_demand_and_audited(steward, library, django_capture_on_commit_callbacks):
    before = AtlasSnapshot.objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        response = steward.post("/steward/atlas/refresh/", **HTMX)

    assert response.status_code == 200 and "on its way" in response.content.decode()
    assert AtlasSnapshot.objects.count() == before + 1  # the test worker runs tasks inline
    assert audit_lines("atlas.refresh") == [{"actor": "ada", "target": "atlas", "before": None, "after": None}]


def test_who_may_enter(library):
    anonymous = Client().get(URL)
    agent = Client()
    agent.force_login(make_principal("bob", kind=Principal.Kind.HUMAN).user)

    assert anonymous.status_code == 302 and "/steward/login/" in anonymous["Location"]
    assert agent.get(URL).status_code == 403
    assert agent.post("/steward/atlas/refresh/").status_code == 403

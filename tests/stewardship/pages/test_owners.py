"""The room's owners: the list (every owner by workspace, counts kept exact as memories change,
search, cursor paging) and an owner's page (profile lines with their memories, the timeline filtered
by state and category, documents, categories, open reviews, the way to the erasure)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from memory.categories.models import Filing
from memory.categories.services import category_ensure
from memory.charter.models import ContradictionReview
from memory.documents.services import DocumentInput, document_add
from memory.models import Memory
from rbac.models import Principal, Role
from rbac.policy import write_domain_resolve
from stewardship.erasure import owner_erase
from stewardship.models import OwnerCount
from stewardship.owner_counts import owner_counts_fold
from tests.factories import grant, make_memory, make_principal, make_workspace
from tests.stewardship.pages.conftest import add_as

pytestmark = pytest.mark.django_db


def _add(api, team: str, message: str, user_id: str = "alice") -> str:
    return add_as(api, team, message, user_id)


def _team_writer():
    """A worker of a new workspace ``team`` and its write domain, to store memories directly."""
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    return writer, write_domain_resolve(actor=writer.user, group_id="team")


@pytest.fixture
def alice(two_teams):
    """Alice's memories: in red, a move (the first address superseded), a locker code forgotten, an
    allergy taken back (retracted, its review open); in blue, one current fact. Bob has one in red."""
    red, blue = two_teams["red"], two_teams["blue"]
    held = {
        "lisbon": _add(red, "red", "Alice lives in Lisbon."),
        "porto": _add(red, "red", "Alice moved to Porto."),
        "locker": _add(red, "red", "Alice's locker code is 4411."),
        "allergy": _add(red, "red", "I am allergic to peanuts."),
        "not_allergic": _add(red, "red", "I'm not allergic to peanuts after all."),
        "chess": _add(blue, "blue", "Alice plays chess on Sundays.", user_id="alice"),
        "bob": _add(red, "red", "Bob likes tea.", user_id="bob"),
    }
    assert red.post("/api/v1/forget_memory", {"actor_id": "red", "memory_id": held["locker"]}).status_code == 200
    return held


def text_of(html: str) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def _rows(html: str) -> list[str]:
    """The owners list's rows as a reader reads them: owner, workspace, current, held."""
    rows = re.findall(r"<tr>\s*(<td>.*?)</tr>", html, flags=re.S)
    return [" ".join(text_of(row).split()[:4]) for row in rows]


def test_every_owner_is_listed_by_workspace_with_current_and_held_memories(steward, alice):
    page = steward.get("/steward/owners/").content.decode()

    # alice in red: Porto, the allergy (retracted, its review open, not replaced) and the statement
    # taking it back are current; Lisbon is superseded and the locker code forgotten, yet held.
    assert _rows(page) == ["alice red 3 5", "alice blue 1 1", "bob red 1 1"]
    assert 'href="/steward/owners/alice/"' in page
    assert 'aria-current="page">Owners</a>' in page


def test_counts_stay_exact_once_folded_and_the_owner_leaves_them_when_erased(steward, alice, ada):
    before = _rows(steward.get("/steward/owners/").content.decode())
    owner_counts_fold(wait=True)

    assert _rows(steward.get("/steward/owners/").content.decode()) == before
    assert OwnerCount.objects.filter(user_id="alice").count() == 2, "folded into one row per workspace"

    owner_erase(actor=ada.user, user_id="alice", workspace=None, confirm="alice")

    assert _rows(steward.get("/steward/owners/").content.decode()) == ["bob red 1 1"]
    assert not OwnerCount.objects.filter(user_id="alice").exists(), "the erased owner's id leaves the counts"
    assert steward.get("/steward/owners/alice/").status_code == 404


def test_the_search_matches_part_of_an_owner_id_in_any_case(steward, alice):
    found = steward.get("/steward/owners/", {"q": "LIC"}).content.decode()
    none = steward.get("/steward/owners/", {"q": "zz"}, HTTP_HX_REQUEST="true").content.decode()
    too_long = steward.get("/steward/owners/", {"q": "x" * 201}).content.decode()

    assert _rows(found) == ["alice red 3 5", "alice blue 1 1"]
    assert "No owner matches this search." in text_of(none) and "<html" not in none
    assert "at most 200 characters" in text_of(too_long) and "bob" in text_of(too_long), "left out, shown inline"


def test_the_list_pages_with_a_cursor_even_past_an_owner_whose_id_holds_the_separator(steward):
    author, domain = _team_writer()
    owners = [f"o{n:02d}" for n in range(49)] + ["o48~x", "o49"]
    for owner in owners:
        make_memory(author=author, domain=domain, content=f"{owner} likes tea.", user_id=owner)

    first = steward.get("/steward/owners/").content.decode()
    cursor = unescape(re.search(r"cursor=([^\"]+)\" hx-target=\"#owner-more\"", first).group(1))
    rest = steward.get(f"/steward/owners/?cursor={cursor}", HTTP_HX_REQUEST="true").content.decode()

    assert [row.split()[0] for row in _rows(first)] == owners[:50]
    assert [row.split()[0] for row in _rows(rest)] == ["o49"]
    assert "owner-more" not in rest, "the last page offers no more"


def test_an_owner_page_shows_each_profile_line_with_the_memories_behind_it(steward, alice):
    page = steward.get("/steward/owners/alice/").content.decode()
    red = page[page.index('id="profile-red"') : page.index("</article>", page.index('id="profile-red"'))]

    line = next(
        item for item in red.split('<li><span class="profile-line">') if item.startswith("Alice moved to Porto.")
    )
    assert f'href="/steward/memories/{alice["porto"]}/"' in line
    assert "Alice lives in Lisbon." not in red, "a superseded memory is no line of the profile"
    assert 'id="profile-blue"' in page and "Alice plays chess on Sundays." in page


def test_the_timeline_shows_every_state_and_filters_by_state(steward, alice):
    page = steward.get("/steward/owners/alice/").content.decode()
    superseded = steward.get("/steward/owners/alice/", {"state": "superseded"}, HTTP_HX_REQUEST="true")
    forgotten = steward.get("/steward/owners/alice/", {"state": "forgotten"}, HTTP_HX_REQUEST="true")
    reviewed = steward.get("/steward/owners/alice/", {"state": "contradicted"}, HTTP_HX_REQUEST="true")

    timeline = page[page.index('id="owner-timeline"') :]
    for state in ("superseded", "forgotten", "retracted", "current"):
        assert f'data-state="{state}"' in timeline
    assert "Bob likes tea." not in page
    assert re.findall(r"/steward/memories/([0-9a-f-]{36})/", superseded.content.decode()) == [
        alice["lisbon"],
        alice["porto"],
    ], "the superseded memory, linked to the one that replaced it"
    assert "Alice's locker code is 4411." in text_of(forgotten.content.decode())
    assert "Alice moved to Porto." not in text_of(forgotten.content.decode())
    assert "is allergic to peanuts." in text_of(reviewed.content.decode())
    assert "not allergic" not in text_of(reviewed.content.decode()), "the statement taking it back is under no review"


def test_the_timeline_and_the_categories_filter_by_category(steward, alice):
    home = Memory.objects.get(pk=alice["porto"])
    paths = category_ensure(scope=home.rbac_scope, paths=["places/home"])
    Filing.objects.create(memory=home, category=paths["places/home"], method=Filing.Method.RULES)

    page = steward.get("/steward/owners/alice/").content.decode()
    filtered = steward.get("/steward/owners/alice/", {"category": "places"}, HTTP_HX_REQUEST="true").content.decode()
    unknown = steward.get("/steward/owners/alice/", {"category": "nowhere"}, HTTP_HX_REQUEST="true").content.decode()

    start = page.index('id="owner-categories"')
    rows = re.findall(r"<tr><td>(.*?)</tr>", page[start : page.index("</table>", start)])
    assert [" ".join(text_of(row).split()[:2]) for row in rows] == ["places 1", "places/home 1"]
    assert 'href="/steward/owners/alice/?category=places/home"' in page
    assert "Alice moved to Porto." in text_of(filtered)
    assert "Alice lives in Lisbon." not in text_of(filtered) and "chess" not in text_of(filtered)
    assert "not one of the available choices" in text_of(unknown) and "chess" in text_of(unknown)


def test_an_owner_page_lists_documents_open_reviews_and_the_way_to_erase(steward, alice):
    writer = Principal.objects.get(user__username="red").user
    document = document_add(
        actor=writer, given=DocumentInput(user_id="alice", title="Medical notes", text="# Notes\n\nPeanuts.\n")
    ).document
    review = ContradictionReview.objects.get(to_memory_id=alice["allergy"])

    page = steward.get("/steward/owners/alice/").content.decode()

    assert f'href="/steward/documents/{document.pk}/">Medical notes</a>' in page
    reviews = page[page.index('id="owner-reviews"') :]
    assert f'id="review-{review.pk}"' in reviews and f"/steward/reviews/{review.pk}/settle/" in reviews
    assert 'href="/steward/memories/erase/?user_id=alice"' in page


def test_an_owner_with_only_documents_has_a_page_and_an_unknown_owner_is_404(steward, two_teams):
    writer = Principal.objects.get(user__username="red").user
    document_add(actor=writer, given=DocumentInput(user_id="carol", title="CV", text="# CV\n\nChemist.\n"))

    assert steward.get("/steward/owners/carol/").status_code == 200
    assert steward.get("/steward/owners/nobody/").status_code == 404


def test_an_owner_id_with_slashes_and_markup_is_linked_and_escaped(steward):
    owner = 'team/ann?<b>"x"</b>#1'
    author, domain = _team_writer()
    make_memory(author=author, domain=domain, content="Ann likes tea.", user_id=owner)
    url = reverse("steward:owner", args=[owner])

    listed = steward.get("/steward/owners/").content.decode()
    page = steward.get(url)

    assert f'href="{url}"' in listed and "<b>" not in listed
    assert page.status_code == 200 and "Ann likes tea." in page.content.decode()
    assert "<b>" not in page.content.decode() and "&lt;b&gt;" in page.content.decode()


def test_only_a_global_admin_opens_the_owners(client, alice):
    assert client.get("/steward/owners/").status_code == 302
    client.force_login(make_principal("mallory", kind=Principal.Kind.HUMAN).user)
    assert client.get("/steward/owners/").status_code == 403
    assert client.get("/steward/owners/alice/").status_code == 403

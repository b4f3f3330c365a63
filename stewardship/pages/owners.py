"""Owners: the people memories are about (``Memory.user_id``, not principals), each by workspace with
the memories held about them, and an owner's page answering "what do we hold about this person":
their profile with the memories behind each line, their memories as a timeline (every state), their
documents, categories and open reviews, and the way to correct (a memory's page) or erase them.

Counts are kept per owner and workspace (``stewardship.owner_counts``), so the list costs a page of
owners whatever the number of memories. The steward is a global admin: every owner is theirs to see."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from memory.categories.counts import category_counts
from memory.categories.models import Filing
from memory.charter.models import ContradictionReview, Resolution
from memory.documents.models import Document
from memory.models import Memory
from memory.profiles import profiles_get
from rbac.models import Workspace
from stewardship.access import steward_only
from stewardship.owner_counts import OwnerRow, owner_counts
from stewardship.paging import Page, page_after, query_without_cursor
from stewardship.states import CURRENT, memory_states

PAGE_SIZE = 50
TIMELINE_SIZE = 50
SHOWN = 50  # documents and open reviews on an owner's page
MAX_CURSOR_CHARS = 220
CURSOR_SEPARATOR = "~"
TIMELINE_FIELDS = ("id", "content", "memory_type", "created_at", "valid_from", "deleted_at", "valid_to", "expires_at")


class OwnerSearch(forms.Form):
    q = forms.CharField(max_length=200, required=False, label="owner", help_text="part of a user_id, any case")


class TimelineFilter(forms.Form):
    STATES = [
        ("", "any"),
        ("current", "current"),
        ("superseded", "superseded"),
        ("contradicted", "under review (contradicted, retracted)"),
        ("forgotten", "forgotten"),
        ("expired", "expired"),
    ]

    state = forms.ChoiceField(choices=STATES, required=False)
    category = forms.ChoiceField(choices=[("", "any")], required=False)

    def __init__(self, *args: Any, paths: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", "any"), *((path, path) for path in paths)]

    def narrow(self, memories: QuerySet[Memory]) -> QuerySet[Memory]:
        """Apply every valid filter; an invalid one is shown with its error and left out."""
        self.is_valid()
        state, path = self.cleaned_data.get("state"), self.cleaned_data.get("category")
        if state:
            memories = memories.filter(_in_state(state))
        if path:
            filed = Filing.objects.filter(memory=OuterRef("pk"), category__lineage__contains=[path])
            memories = memories.filter(Exists(filed))
        return memories


def _in_state(state: str) -> Q:
    """The memories a state filter keeps: as ``stewardship.states`` names them, read from the row;
    "contradicted" is every memory with an open contradiction review against it."""
    now = timezone.now()
    live = Q(deleted_at__isnull=True)
    unexpired = Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    if state == "current":
        return live & unexpired & Q(valid_to__isnull=True)
    if state == "superseded":
        return live & Q(valid_to__isnull=False)
    if state == "forgotten":
        return Q(deleted_at__isnull=False)
    if state == "expired":
        return live & Q(expires_at__lte=now)
    disputed = ContradictionReview.objects.filter(to_memory=OuterRef("pk"), status=ContradictionReview.Status.OPEN)
    return Q(Exists(disputed))


@steward_only
def owners(request: HttpRequest) -> HttpResponse:
    """Every owner by workspace, in order of their id; for htmx (search, "more") only the rows."""
    form = OwnerSearch(request.GET)
    text = form.cleaned_data["q"].strip() if form.is_valid() else ""
    found = owner_counts(text=text, after=_decode(request.GET.get("cursor")), limit=PAGE_SIZE + 1)
    more = len(found) > PAGE_SIZE
    page = Page(rows=_named(found[:PAGE_SIZE]), next_cursor=_encode(found[PAGE_SIZE - 1]) if more else None)
    template = "stewardship/partials/owner_rows.html" if request.htmx else "stewardship/owners.html"
    return render(request, template, {"form": form, "page": page, "query": query_without_cursor(request)})


@steward_only
def owner_page(request: HttpRequest, user_id: str) -> HttpResponse:
    """One owner; for htmx (timeline filters, "more") only the timeline's rows."""
    places = _named(owner_counts(user_id=user_id))
    documents = Document.objects.filter(user_id=user_id).select_related("workspace").defer("text", "page_starts")
    if not places and not documents.exists():
        raise Http404("No memory and no document is held about this owner.")
    categories = category_counts(readable=None, user_id=user_id, under=None, limit=None, offset=0)
    form = TimelineFilter(request.GET, paths=[path for path, _, _ in categories])
    timeline = _timeline(user_id, form, cursor=request.GET.get("cursor"))
    row_context = {"form": form, "timeline": timeline, "user_id": user_id, "query": query_without_cursor(request)}
    if request.htmx:
        return render(request, "stewardship/partials/owner_timeline.html", row_context)
    context = {
        **row_context,
        "places": places,
        "profiles": _profiles(request, user_id),
        "categories": categories,
        "documents": list(documents.order_by("-created_at")[:SHOWN]),
        "reviews": _open_reviews(user_id),
        "resolutions": Resolution.choices,
        "shown": SHOWN,
    }
    return render(request, "stewardship/owner.html", context)


def _timeline(user_id: str, form: TimelineFilter, *, cursor: str | None) -> Page:
    """The owner's memories, newest first, in every state, each with the state it is in."""
    memories = form.narrow(Memory.objects.filter(user_id=user_id).only(*TIMELINE_FIELDS))
    page = page_after(memories, cursor=cursor, size=TIMELINE_SIZE, field="created_at")
    states = memory_states([memory.pk for memory in page.rows])
    for memory in page.rows:
        memory.room_state = states.get(str(memory.pk), CURRENT)
    return page


def _profiles(request: HttpRequest, user_id: str) -> list[dict[str, Any]]:
    """The owner's profile in each workspace (as ``get_profile`` builds it), each line with the
    memories it rests on and their state; a memory erased since is named as gone."""
    profiles = profiles_get(actor=request.user, user_id=user_id)
    cited = {i for p in profiles for line in [*p.static, *p.dynamic] for i in line.get("memory_ids", [])}
    contents = {str(i): text for i, text in Memory.objects.filter(pk__in=cited).values_list("id", "content")}
    states = memory_states(cited)
    slugs = _slugs({p.workspace_id for p in profiles})

    def lines(given: list[dict]) -> list[dict[str, Any]]:
        return [
            {
                "text": line.get("text", ""),
                "kind": line.get("kind", ""),
                "memories": [
                    {"id": i, "content": contents.get(i), "state": states.get(str(i), CURRENT)}
                    for i in line.get("memory_ids", [])
                ],
            }
            for line in given
        ]

    return [
        {
            "workspace": slugs.get(p.workspace_id),
            "profile": p,
            "parts": [("static", lines(p.static)), ("dynamic", lines(p.dynamic))],
        }
        for p in profiles
    ]


def _open_reviews(user_id: str) -> list[ContradictionReview]:
    about = Q(to_memory__user_id=user_id) | Q(from_memory__user_id=user_id)
    reviews = ContradictionReview.objects.filter(about, status=ContradictionReview.Status.OPEN)
    return list(reviews.select_related("from_memory", "to_memory", "workspace", "raised_by")[:SHOWN])


def _named(rows: list[OwnerRow]) -> list[dict[str, Any]]:
    slugs = _slugs({row.workspace_id for row in rows if row.workspace_id is not None})
    return [{"row": row, "workspace": slugs.get(row.workspace_id) if row.workspace_id else None} for row in rows]


def _slugs(ids: set[int]) -> dict[int, str]:
    return dict(Workspace.objects.filter(id__in=ids).values_list("id", "slug")) if ids else {}


def _encode(row: OwnerRow) -> str:
    """The key of the last row shown: its workspace first, since an owner's id may hold the separator."""
    return f"{row.workspace_id or 0}{CURSOR_SEPARATOR}{row.user_id}"


def _decode(cursor: str | None) -> tuple[str, int] | None:
    """A cursor that does not parse starts from the top, as the other lists' do."""
    if not cursor or len(cursor) > MAX_CURSOR_CHARS:
        return None
    workspace, _, owner = cursor.partition(CURSOR_SEPARATOR)
    if not owner or not (workspace.isascii() and workspace.isdigit()) or len(workspace) > 10:
        return None
    return owner, int(workspace)

"""The category atlas: the latest snapshot (taken every 5 minutes by the worker) drawn as a
treemap sized by memories and coloured by freshness, narrowed by workspace, owner, focus
category and query, with a paged drill-down into one category's memories read live."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from helixsite.task_broker import task_enqueue
from memory.categories.paths import path_normalize
from memory.categories.selectors import AtlasFilter, atlas_memories, atlas_snapshot_latest, atlas_tree
from rbac.models import Workspace
from stewardship.access import steward_only
from stewardship.paging import page_after
from stewardship.services import audit_record
from stewardship.states import CURRENT, memory_states

PAGE_SIZE = 25
TABLE_ROWS = 30
PATH_HELP = "a category path, e.g. work/infrastructure"
QUEUE_AWAY = "The task queue cannot be reached right now; the schedule takes a snapshot once it is back."


class AtlasForm(forms.Form):
    workspace = forms.ModelChoiceField(
        queryset=Workspace.objects.order_by("slug"), to_field_name="slug", required=False, empty_label="every workspace"
    )
    owner = forms.CharField(max_length=200, required=False, help_text="whose memories (user_id)")
    focus = forms.CharField(max_length=200, required=False, help_text=PATH_HELP)
    q = forms.CharField(max_length=200, required=False, label="query", help_text="words in the memories")
    category = forms.CharField(max_length=200, required=False, widget=forms.HiddenInput)

    def clean_focus(self) -> str:
        return _path(self.cleaned_data["focus"])

    def clean_category(self) -> str:
        return _path(self.cleaned_data["category"])

    def where(self) -> AtlasFilter:
        value = self.cleaned_data
        return AtlasFilter(
            workspace_id=value["workspace"].id if value.get("workspace") else None,
            owner=value.get("owner", "").strip(),
            focus=value.get("focus", ""),
            query=value.get("q", "").strip(),
        )


def _path(text: str) -> str:
    if not text.strip():
        return ""
    path = path_normalize(text)
    if path is None:
        raise forms.ValidationError("Not a category path: 1 to 4 segments of letters, digits and hyphens joined by /.")
    return path


@steward_only
def atlas(request: HttpRequest) -> HttpResponse:
    """The full page; for htmx the picture with its table (filters) or the drill-down rows."""
    form = AtlasForm(request.GET)
    target = request.htmx.target if request.htmx else None
    if not form.is_valid():
        template = "stewardship/partials/atlas_errors.html" if request.htmx else "stewardship/atlas.html"
        return render(request, template, {"form": form}, status=400)
    context = _drill(request, form) if form.cleaned_data["category"] else {}
    if target == "atlas-drill" or (target or "").startswith("atlas-more"):
        return render(request, "stewardship/partials/atlas_memories.html", context)
    context.update(_picture(form))
    template = "stewardship/partials/atlas_body.html" if request.htmx else "stewardship/atlas.html"
    return render(request, template, context)


def _picture(form: AtlasForm) -> dict[str, Any]:
    snapshot = atlas_snapshot_latest()
    if snapshot is None:
        return {"form": form, "snapshot": None}
    tree = atlas_tree(snapshot=snapshot, where=form.where())
    query = {k: v for k, v in form.data.items() if k in ("workspace", "owner", "focus", "q") and v}
    return {
        "form": form,
        "snapshot": snapshot,
        "tree": tree,
        "table": _biggest(tree.nodes),
        "filters": query,
    }


def _biggest(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The largest categories at any depth, for the table under the picture."""
    flat: list[dict[str, Any]] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        flat.append(node)
        stack.extend(node.get("children", []))
    return sorted(flat, key=lambda n: (-n["value"], n["path"]))[:TABLE_ROWS]


def _drill(request: HttpRequest, form: AtlasForm) -> dict[str, Any]:
    path = form.cleaned_data["category"]
    memories = atlas_memories(path=path, where=form.where())
    # By event time: memory_event_time indexes it, so a large category's first rows are found
    # without sorting all of them.
    page = page_after(memories, cursor=request.GET.get("cursor"), size=PAGE_SIZE, field="valid_from")
    states = memory_states([memory.id for memory in page.rows])
    for memory in page.rows:
        memory.room_state = states.get(str(memory.id), CURRENT)
    query = request.GET.copy()
    query.pop("cursor", None)
    return {"drill": {"path": path, "page": page, "query": query.urlencode()}, "form": form}


@steward_only
@require_POST
def atlas_refresh(request: HttpRequest) -> HttpResponse:
    """Take a snapshot now instead of waiting for the schedule (on the worker). Queued after the
    audit line commits, here rather than in ``on_commit`` so the answer can say whether it was: with
    the task queue (Redis) away it is not, and the schedule takes the next one once it is back."""
    with transaction.atomic():
        audit_record(actor=request.user, action="atlas.refresh", target="atlas")
    queued = task_enqueue("memory.categories.tasks.atlas_refresh", task_name="atlas refresh")
    notice = "A new snapshot is on its way." if queued else QUEUE_AWAY
    return render(request, "stewardship/partials/notice.html", {"notice": notice})

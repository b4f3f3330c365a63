"""Documents as the installation holds them: a list filtered by owner, workspace and status, and a
document's page with where its storing stands (status, chunks stored and read for memories, the
error that stopped it), its versions, its current chunks and the memories read from it. The
steward is a global admin: every document is theirs to see, forgotten ones included."""

from __future__ import annotations

import uuid

from django import forms
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from memory.documents.models import Chunk, Document, DocumentStatus, ExtractedFrom
from stewardship.access import steward_only
from stewardship.paging import page_after, query_without_cursor
from stewardship.states import CURRENT, memory_states

PAGE_SIZE = 50
CHUNKS_SHOWN = 50
MEMORIES_SHOWN = 100


class DocumentFilter(forms.Form):
    owner = forms.CharField(max_length=200, required=False, help_text="user_id")
    workspace = forms.SlugField(max_length=60, required=False)
    status = forms.ChoiceField(choices=[("", "any"), *DocumentStatus.choices], required=False)
    forgotten = forms.BooleanField(required=False, label="forgotten too")

    def narrow(self, documents: QuerySet[Document]) -> QuerySet[Document]:
        """Apply every valid filter; an invalid one is shown with its error and left out."""
        self.is_valid()
        value = self.cleaned_data
        if not value.get("forgotten"):
            documents = documents.live()
        if value.get("owner"):
            documents = documents.filter(user_id=value["owner"])
        if value.get("workspace"):
            documents = documents.filter(workspace__slug=value["workspace"])
        if value.get("status"):
            documents = documents.filter(status=value["status"])
        return documents


@steward_only
def documents(request: HttpRequest) -> HttpResponse:
    """Every document, newest first; for htmx (filters, "more") only the rows."""
    form = DocumentFilter(request.GET)
    found = form.narrow(Document.objects.select_related("author", "workspace").defer("text", "page_starts"))
    page = page_after(found, cursor=request.GET.get("cursor"), size=PAGE_SIZE, field="created_at")
    template = "stewardship/partials/document_rows.html" if request.htmx else "stewardship/documents.html"
    return render(request, template, {"form": form, "page": page, "query": query_without_cursor(request)})


@steward_only
def document_page(request: HttpRequest, document_id: uuid.UUID) -> HttpResponse:
    """One document; for htmx (polled while the worker stores it) only its progress."""
    document = get_object_or_404(Document.objects.select_related("author", "workspace").defer("text"), pk=document_id)
    if request.htmx:
        return render(request, "stewardship/partials/document_progress.html", {"document": document})
    current = Chunk.objects.filter(document=document, version=document.version).defer("embedding", "search_vector")
    read_from = (
        ExtractedFrom.objects.filter(chunk__document=document)
        .select_related("memory", "chunk")
        .order_by("chunk__version", "chunk__position", "memory__created_at")
    )
    extracted = list(read_from[:MEMORIES_SHOWN])
    states = memory_states([link.memory_id for link in extracted])
    for link in extracted:
        link.memory.room_state = states.get(str(link.memory_id), CURRENT)
    context = {
        "document": document,
        "chunks": list(current.order_by("position")[:CHUNKS_SHOWN]),
        "history": document.history.select_related("actor"),
        "extracted": extracted,
        "shown": {"chunks": CHUNKS_SHOWN, "memories": MEMORIES_SHOWN},
    }
    return render(request, "stewardship/document.html", context)

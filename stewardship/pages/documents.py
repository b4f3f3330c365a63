"""Documents as the installation holds them: a list filtered by owner, workspace and status, and a
document's page with where its storing stands (status, chunks stored and read for memories, the
error that stopped it), its versions, its current chunks and the memories read from it, and its
forget (``forget_document``'s service, audited). The steward is a global admin: every document is
theirs to see, forgotten ones included."""

from __future__ import annotations

import uuid

from django import forms
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from helixsite.errors import ApplicationError
from memory.documents.models import Chunk, Document, DocumentStatus, ExtractedFrom
from memory.documents.services import document_forget
from stewardship.access import steward_only
from stewardship.paging import page_after, query_without_cursor
from stewardship.services import audit_record
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
    if request.htmx:
        document = get_object_or_404(Document.objects.defer("text"), pk=document_id)
        return render(request, "stewardship/partials/document_progress.html", {"document": document})
    return _page(request, document_id)


def _page(request: HttpRequest, document_id: uuid.UUID, error: ApplicationError | None = None) -> HttpResponse:
    document = get_object_or_404(Document.objects.select_related("author", "workspace").defer("text"), pk=document_id)
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
        "error": error,
    }
    return render(request, "stewardship/document.html", context, status=error.status if error else 200)


@steward_only
@require_POST
def document_forget_action(request: HttpRequest, document_id: uuid.UUID) -> HttpResponse:
    """Forget the document as ``forget_document`` does (the memories only it said go with it)."""
    reason = request.POST.get("reason", "").strip()[:500]
    try:
        with transaction.atomic():
            forgotten = document_forget(actor=request.user, document_id=document_id, reason=reason)
            audit_record(
                actor=request.user,
                action="document.forget",
                target=f"document:{document_id}",
                before={"forgotten": False},
                after={"forgotten": True, "memories_forgotten": forgotten.memories_forgotten, "reason": reason},
            )
    except ApplicationError as exc:
        return _page(request, document_id, error=exc)
    return redirect("steward:document", document_id=document_id)

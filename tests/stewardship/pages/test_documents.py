"""The room's documents: the list (filtered, paged) and a document's page, which says where its
storing stands while the worker stores it (pending, chunks stored, the error that stopped it),
then its chunks, the memories read from it and the versions it replaced."""

from __future__ import annotations

import re

import pytest
from django.test import TestCase

from memory.documents.models import Document
from memory.documents.services import DocumentInput, document_accept, document_add
from rbac.models import Role
from stewardship.pages import documents as documents_page
from tests.factories import grant, make_agent_with_token, make_workspace
from tests.stewardship.pages.conftest import audit_lines

pytestmark = pytest.mark.django_db

RUNBOOK = "# Runbook\n\nCanary first.\n\n## Rollback\n\nRun helm rollback and page the on-call engineer.\n"


@pytest.fixture
def writer():
    principal, _token = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return principal.user


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_an_accepted_document_shows_pending_and_is_polled_until_the_worker_stores_it(steward, writer):
    with TestCase.captureOnCommitCallbacks() as queued:
        accepted = document_accept(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK))
    page = steward.get(f"/steward/documents/{accepted.document.pk}/").content.decode()

    assert "pending" in text_of(page) and "chunks stored 0 of 2" in text_of(page)
    assert 'hx-trigger="every 2s"' in page, "the progress is polled while the worker stores it"
    assert "No chunk stored yet: the worker stores them." in text_of(page)

    for task in queued:
        task()
    progress = steward.get(f"/steward/documents/{accepted.document.pk}/", HTTP_HX_REQUEST="true").content.decode()

    assert "complete" in text_of(progress) and "chunks stored 2 of 2" in text_of(progress)
    assert "every 2s" not in progress, "a stored document is no longer polled"


def test_a_stopped_document_shows_its_error_and_how_it_resumes(steward, writer):
    document = document_add(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK)).document
    Document.objects.filter(pk=document.pk).update(
        status="partial", chunks_done=1, error="embedding_unavailable: the embedding service is down"
    )

    page = text_of(steward.get(f"/steward/documents/{document.pk}/").content.decode())

    assert "partial" in page and "embedding_unavailable: the embedding service is down" in page
    assert "The worker's sweep resumes it within about ten minutes" in page


def test_a_document_page_shows_its_chunks_and_versions(steward, writer):
    first = document_add(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK)).document
    document_add(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK + "\nThen wait.\n"))

    page = text_of(steward.get(f"/steward/documents/{first.pk}/").content.decode())

    assert "Runbook › Rollback" in page and "Run helm rollback and page the on-call engineer." in page
    assert "REPLACE 1 Runbook writer" in page, "the version it replaced"


def test_the_list_filters_by_owner_and_status_and_leaves_forgotten_ones_out(steward, writer):
    kept = document_add(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK)).document
    other = document_add(actor=writer, given=DocumentInput(user_id="bob", title="Notes", text="# Notes\n\nTea.\n"))
    gone = document_add(actor=writer, given=DocumentInput(user_id="ada", title="Old", text="# Old\n\nGone.\n"))
    Document.objects.filter(pk=gone.document.pk).update(deleted_at=gone.document.created_at)

    everyone = steward.get("/steward/documents/").content.decode()
    ada = steward.get("/steward/documents/?owner=ada").content.decode()
    pending = steward.get("/steward/documents/?status=pending").content.decode()
    with_forgotten = steward.get("/steward/documents/?forgotten=on").content.decode()

    assert f"/steward/documents/{kept.pk}/" in everyone and f"/steward/documents/{other.document.pk}/" in everyone
    assert f"/steward/documents/{gone.document.pk}/" not in everyone
    assert f"/steward/documents/{other.document.pk}/" not in ada
    assert "No documents match these filters." in text_of(pending)
    assert f"/steward/documents/{gone.document.pk}/" in with_forgotten and "forgotten" in text_of(with_forgotten)


def test_the_list_pages_with_a_cursor(steward, writer, monkeypatch):
    for n in range(3):
        document_add(
            actor=writer, given=DocumentInput(user_id="ada", title=f"Doc {n}", text=f"# Doc {n}\n\nText {n}.\n")
        )
    monkeypatch.setattr(documents_page, "PAGE_SIZE", 2)

    first = steward.get("/steward/documents/").content.decode()
    cursor = re.search(r"cursor=([^\"&]+)", first).group(1)
    second = steward.get(f"/steward/documents/?cursor={cursor}", HTTP_HX_REQUEST="true").content.decode()
    shown = re.findall(r"/steward/documents/([0-9a-f-]{36})/", first) + re.findall(
        r"/steward/documents/([0-9a-f-]{36})/", second
    )
    assert len(shown) == len(set(shown)) == 3


def test_an_unknown_document_is_a_404(steward):
    assert steward.get("/steward/documents/00000000-0000-4000-8000-000000000000/").status_code == 404


def test_a_refused_file_says_why_and_that_sending_it_again_reads_it_again(steward, writer):
    document = document_add(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK)).document
    Document.objects.filter(pk=document.pk).update(
        status="refused", chunks_done=0, error="empty_document: The PDF holds no text (a scan?)."
    )

    page = text_of(steward.get(f"/steward/documents/{document.pk}/").content.decode())

    assert "refused empty_document: The PDF holds no text (a scan?)." in page
    assert "sending the same file again has it read again" in page and "sweep" not in page


def test_forgetting_a_document_from_its_page_is_audited_and_said_on_the_page(steward, writer):
    document = document_add(actor=writer, given=DocumentInput(user_id="ada", title="Runbook", text=RUNBOOK)).document

    answer = steward.post(f"/steward/documents/{document.pk}/forget/", {"reason": "asked by ada"})
    page = steward.get(f"/steward/documents/{document.pk}/").content.decode()
    again = steward.post(f"/steward/documents/{document.pk}/forget/", {"reason": "twice"})

    assert answer.status_code == 302 and Document.objects.get(pk=document.pk).deleted_at is not None
    assert audit_lines("document.forget")[0]["after"]["reason"] == "asked by ada"
    assert "FORGET 1 Runbook ada asked by ada" in text_of(page) and 'id="document-forget"' not in page
    assert again.status_code == 404 and "Document not found." in text_of(again.content.decode())
    assert len(audit_lines("document.forget")) == 1, "a refused forget writes no audit line"

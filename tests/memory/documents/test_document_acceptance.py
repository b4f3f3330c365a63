"""add_document answers once the document is accepted: pending, a text's chunks counted, a file
only opened; the task that reads and stores it is queued for after the commit; the worker's task
stores it and get_document shows it. What no task stored (its queue lost, its worker killed) the
worker's sweep stores. A PDF whose streams inflate past the bound is refused by the worker while
it inflates, before any text is read, and so is a PDF with no text; sent again, it is read again."""

from __future__ import annotations

import io
import zlib
from datetime import timedelta
from unittest import mock

import pytest
from django.test import TestCase, override_settings
from django.utils import timezone
from pypdf import PageObject, PdfWriter
from pypdf.generic import DictionaryObject, NameObject, NumberObject, StreamObject

from memory.documents.formats import inflate_limit
from memory.documents.models import Chunk, Document
from memory.documents.tasks import documents_resume
from tests.memory.documents.conftest import RUNBOOK
from tests.memory.documents.test_add_document import encoded

pytestmark = pytest.mark.django_db


def accept(agent, **params):
    """The call alone: what it queued is returned, not run."""
    params = {"user_id": "ada", "group_id": "crew", "title": "Deploy runbook", **params}
    if "content_base64" not in params:
        params.setdefault("text", RUNBOOK)
    with TestCase.captureOnCommitCallbacks() as queued:
        response = agent.call("add_document", **params)
    return response, queued


def test_the_call_answers_pending_and_the_queued_task_stores_the_chunks(crew):
    response, queued = accept(crew.writer)

    assert response.status_code == 200, response.json()
    accepted = response.json()["document"]
    assert (accepted["status"], accepted["chunks_done"], accepted["chunks_total"]) == ("pending", 0, 3)
    before = crew.writer.call("get_document", document_id=accepted["id"]).json()
    assert (before["document"]["status"], before["chunks"]) == ("pending", [])
    assert len(queued) == 1

    queued[0]()  # the worker's part

    after = crew.writer.call("get_document", document_id=accepted["id"]).json()
    assert (after["document"]["status"], after["document"]["chunks_done"], len(after["chunks"])) == ("complete", 3, 3)


def test_the_same_content_again_queues_nothing_once_stored(crew):
    _response, queued = accept(crew.writer)
    queued[0]()

    again, queued_again = accept(crew.writer)

    assert again.json()["outcome"] == "unchanged" and again.json()["document"]["status"] == "complete"
    assert queued_again == []


def test_the_sweep_stores_a_document_whose_task_never_ran(crew):
    response, _lost = accept(crew.writer)  # the task is never run: its queue was lost
    document_id = response.json()["document"]["id"]

    assert documents_resume() == 0, "too recent: its task may still come"
    Document.objects.filter(pk=document_id).update(updated_at=timezone.now() - timedelta(minutes=6))
    assert documents_resume() == 1

    assert Document.objects.get(pk=document_id).status == "complete"
    assert Chunk.objects.filter(document_id=document_id).count() == 3


def inflating_pdf(pages: int, inflated: int) -> bytes:
    """A PDF of ``pages`` pages whose content streams each inflate to about ``inflated`` bytes of
    positioning operators (compressed a thousandfold) around one line of text."""
    writer = PdfWriter()
    font = {
        NameObject("/Type"): NameObject("/Font"),
        NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"),
    }
    fonts = DictionaryObject({NameObject("/F1"): writer._add_object(DictionaryObject(font))})
    for _ in range(pages):
        page = writer.add_blank_page(width=612, height=792)
        stream = StreamObject()
        stream._data = zlib.compress(b"BT /F1 12 Tf 72 720 Td " + b"0 0 Td " * (inflated // 7) + b"(bomb) Tj ET", 9)
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        stream[NameObject("/Length")] = NumberObject(len(stream._data))
        page[NameObject("/Contents")] = writer._add_object(stream)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("pages", "each"),
    [(1, 70_000_000), (10, inflate_limit() // 5)],
    ids=["one stream inflating to 70 MB", "ten pages each within the bound, past it together"],
)
def test_a_pdf_inflating_past_the_bound_is_refused_by_the_worker_before_its_text_is_read(crew, pages, each):
    bomb = inflating_pdf(pages, each)
    assert len(bomb) < 200_000

    with mock.patch.object(PageObject, "extract_text", autospec=True) as extract_text:
        response, queued = accept(crew.writer, content_base64=encoded(bomb), content_type="application/pdf")
        accepted = response.json()["document"]
        assert (response.status_code, accepted["status"]) == (200, "pending"), "the call only opens the file"
        assert extract_text.call_count == 0
        for task in queued:
            task()

    assert extract_text.call_count < 5, "refused once the bound was passed, not after reading every page"
    document = crew.writer.call("get_document", document_id=accepted["id"]).json()["document"]
    assert (document["status"], document["chunks_done"]) == ("refused", 0)
    assert document["error"].startswith("document_too_large: The PDF's streams inflate past")
    assert Document.objects.get().source_file is None, "the file is not kept once refused"
    assert documents_resume() == 0 and Document.objects.get().status == "refused", "nothing to resume"


def test_a_pdf_without_text_is_refused_by_the_worker_and_taken_again_when_sent_again(crew):
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)  # a page with no text on it, as a scan has
    buffer = io.BytesIO()
    writer.write(buffer)
    scan = buffer.getvalue()
    response, queued = accept(crew.writer, content_base64=encoded(scan), content_type="application/pdf")
    for task in queued:
        task()
    document_id = response.json()["document"]["id"]
    refused = crew.writer.call("get_document", document_id=document_id).json()["document"]
    assert refused["status"] == "refused" and refused["error"].startswith("empty_document:")

    again, queued_again = accept(crew.writer, content_base64=encoded(scan), content_type="application/pdf")

    assert (again.json()["outcome"], again.json()["document"]["status"]) == ("resumed", "pending")
    assert len(queued_again) == 1


@override_settings(HELIX_MAX_DOCUMENT_BYTES=65536)
def test_the_bound_follows_the_document_limit(crew):
    within = inflating_pdf(1, 65536 * 4)

    response, queued = accept(crew.writer, content_base64=encoded(within), content_type="application/pdf")
    for task in queued:
        task()

    assert response.status_code == 200, response.json()
    assert "bomb" in Document.objects.get().text and Document.objects.get().status == "complete"

"""add_document over HTTP: chunks cut at headings with exact offsets, the same content twice is
one document, a new version supersedes the chunks, an interrupted add resumes without
duplicates, PDF and HTML files are read, and bad input is a 400 naming its field."""

from __future__ import annotations

import base64
import io
from datetime import timedelta

import numpy as np
import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone
from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

from memory.documents.models import Chunk, Document
from memory.documents.tasks import document_resume, documents_resume
from memory.providers import EmbeddingUnavailable, get_embedder
from tests.memory.documents.conftest import RUNBOOK, add_document, chunks_of

pytestmark = pytest.mark.django_db


def test_a_markdown_document_is_cut_at_its_headings_with_exact_offsets(crew):
    added = add_document(crew.writer)

    document = added["document"]
    chunks = chunks_of(crew.writer, document["id"])
    text = Document.objects.get(pk=document["id"]).text
    assert (added["outcome"], document["status"], document["chunks_done"]) == ("created", "complete", 3)
    assert [c["heading"] for c in chunks] == [
        "Deploy runbook",
        "Deploy runbook › Rollback",
        "Deploy runbook › Database migrations",
    ]
    assert [c["text"].split("\n")[0] for c in chunks] == ["# Deploy runbook", "## Rollback", "## Database migrations"]
    assert all(text[c["char_start"] : c["char_end"]] == c["text"] for c in chunks)
    assert "helm rollback payments-api 0\nkubectl rollout status" in chunks[1]["text"], "the code block is whole"


@override_settings(HELIX_DOCUMENT_CHUNK_CHARS=200, HELIX_DOCUMENT_CHUNK_OVERLAP=60)
def test_a_long_section_is_cut_between_sentences_and_each_chunk_overlaps_the_one_before(crew):
    sentences = [f"Step {n} of the audit checks the ledger of branch {n}." for n in range(30)]
    text = "# Audit\n\n" + " ".join(sentences)

    document = add_document(crew.writer, title="Audit", text=text)["document"]

    chunks = chunks_of(crew.writer, document["id"])
    assert len(chunks) > 5 and all(len(c["text"]) <= 200 for c in chunks)
    assert all(c["text"].rstrip().endswith(".") for c in chunks), "cut after a sentence"
    assert all(later["char_start"] < earlier["char_end"] for earlier, later in zip(chunks, chunks[1:], strict=False))
    assert all(text[c["char_start"] : c["char_end"]] == c["text"] for c in chunks)
    assert all(c["heading"] == "Audit" for c in chunks)


def test_adding_the_same_content_again_changes_nothing(crew):
    first = add_document(crew.writer)
    again = add_document(crew.writer, title="Another title for the same text")

    assert again["outcome"] == "unchanged"
    assert again["document"]["id"] == first["document"]["id"]
    assert again["document"]["title"] == "Deploy runbook"
    assert Chunk.objects.count() == 3


def test_a_changed_version_supersedes_the_old_chunks_and_keeps_them(crew):
    first = add_document(crew.writer, source_url="https://wiki.example.org/deploy")["document"]
    changed = RUNBOOK.replace("five percent", "ten percent")

    second = add_document(crew.writer, source_url="https://wiki.example.org/deploy", text=changed)

    document = second["document"]
    current = chunks_of(crew.writer, document["id"])
    assert (second["outcome"], document["id"], document["version"]) == ("replaced", first["id"], 2)
    assert "ten percent" in current[0]["text"]
    old = Chunk.objects.filter(document_id=document["id"], version=1)
    assert old.count() == 3 and all(c.superseded_at is not None for c in old)
    history = crew.writer.call("get_document", document_id=document["id"]).json()["history"]
    assert [(h["action"], h["version"]) for h in history] == [("REPLACE", 1)]


def test_document_id_gives_a_document_a_new_version_under_a_new_title(crew):
    first = add_document(crew.writer)["document"]

    second = add_document(crew.writer, document_id=first["id"], title="Runbook (2026)", text="# Runbook\n\nNew text.")

    assert (second["outcome"], second["document"]["id"]) == ("replaced", first["id"])
    assert second["document"]["title"] == "Runbook (2026)"
    assert [c["text"] for c in chunks_of(crew.writer, first["id"])] == ["# Runbook\n\nNew text."]


def test_another_writer_cannot_replace_a_document_by_id(crew):
    first = add_document(crew.writer)["document"]

    refused = crew.stranger.call(
        "add_document", user_id="ada", title="x", text="y", document_id=first["id"], group_id="other"
    )

    assert refused.status_code == 404
    assert refused.json()["error"]["field"] == "document_id"


@override_settings(HELIX_DOCUMENT_EMBED_BATCH=1)
def test_a_failure_part_way_leaves_it_partial_and_adding_it_again_finishes_it(crew, monkeypatch):
    embedder = get_embedder()
    real = embedder.embed
    calls = {"n": 0}

    def fails_on_the_third_chunk(texts, *, purpose):
        if purpose == "document":
            calls["n"] += 1
            if calls["n"] == 3:
                raise EmbeddingUnavailable("the embedding service is down")
        return real(texts, purpose=purpose)

    monkeypatch.setattr(embedder, "embed", fails_on_the_third_chunk)

    failed = add_document(crew.writer)

    stored = failed["document"]
    assert (failed["accepted"]["status"], failed["accepted"]["chunks_total"]) == ("pending", 3)
    assert (stored["status"], stored["chunks_done"], stored["chunks_total"]) == ("partial", 2, 3)
    assert stored["error"].startswith("embedding_unavailable: the embedding service is down")

    retried = add_document(crew.writer)

    assert retried["outcome"] == "resumed"
    assert (retried["document"]["status"], retried["document"]["chunks_done"], retried["document"]["error"]) == (
        "complete",
        3,
        "",
    )
    chunks = Chunk.objects.filter(document_id=stored["id"])
    assert sorted(chunks.values_list("position", flat=True)) == [0, 1, 2], "no chunk twice"
    assert calls["n"] == 4, "only the missing chunk was embedded again"


@override_settings(HELIX_DOCUMENT_EMBED_BATCH=1)
def test_the_resume_task_finishes_an_interrupted_document(crew, monkeypatch):
    embedder = get_embedder()
    real = embedder.embed

    def down(texts, *, purpose):
        if purpose == "document":
            raise EmbeddingUnavailable("down")
        return real(texts, purpose=purpose)

    monkeypatch.setattr(embedder, "embed", down)
    failed = add_document(crew.writer)["document"]
    assert (failed["status"], failed["chunks_done"]) == ("failed", 0)
    monkeypatch.setattr(embedder, "embed", real)

    assert document_resume(failed["id"]) == "complete"

    document = Document.objects.get(pk=failed["id"])
    assert (document.status, document.chunks_done, document.error) == ("complete", 3, "")


@override_settings(HELIX_DOCUMENT_EMBED_BATCH=1)
def test_the_workers_sweep_resumes_what_an_error_stopped_a_while_ago(crew, monkeypatch):
    embedder = get_embedder()
    real = embedder.embed

    def down(texts, *, purpose):
        if purpose == "document":
            raise EmbeddingUnavailable("down")
        return real(texts, purpose=purpose)

    monkeypatch.setattr(embedder, "embed", down)
    stopped = add_document(crew.writer)["document"]["id"]
    monkeypatch.setattr(embedder, "embed", real)

    assert documents_resume() == 0, "too recent: an add may still be running"
    Document.objects.filter(pk=stopped).update(updated_at=timezone.now() - timedelta(minutes=6))
    assert documents_resume() == 1
    assert Document.objects.get(pk=stopped).status == "complete"


def minimal_pdf(pages: list[list[str]]) -> bytes:
    """A PDF whose pages' content streams write the given lines in Helvetica."""
    writer = PdfWriter()
    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
    )
    for lines in pages:
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
        shown = " ".join(f"({line}) Tj 0 -16 Td" for line in lines)
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 12 Tf 72 720 Td {shown} ET".encode())
        page[NameObject("/Contents")] = writer._add_object(stream)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def encoded(data: bytes) -> str:
    return base64.b64encode(data).decode()


@override_settings(HELIX_DOCUMENT_CHUNK_CHARS=120, HELIX_DOCUMENT_CHUNK_OVERLAP=0)
def test_a_pdf_upload_is_read_page_by_page(crew):
    first = ["Quarterly report of the orchard cooperative, third quarter.", "Apple harvest rose by a third."]
    second = ["Pear harvest fell by a fifth after the late frost in April.", "Cider sales doubled."]
    pdf = minimal_pdf([first, second])

    added = add_document(crew.writer, title="Q3 report", content_base64=encoded(pdf), content_type="application/pdf")

    document = added["document"]
    chunks = chunks_of(crew.writer, document["id"])
    text = Document.objects.get(pk=document["id"]).text
    assert (document["content_type"], document["status"]) == ("application/pdf", "complete")
    assert [(c["page"], "Apple" in c["text"], "Pear" in c["text"]) for c in chunks] == [
        (1, True, False),
        (2, False, True),
    ]
    assert all(text[c["char_start"] : c["char_end"]] == c["text"] for c in chunks)


def test_an_html_upload_keeps_its_headings_and_drops_scripts(crew):
    html = b"""<html><head><title>Team</title><style>p {color: red}</style></head><body>
        <h1>Onboarding</h1><p>New members get a laptop on their first day.</p>
        <script>alert('x')</script>
        <h2>Accounts</h2><ul><li>Mail</li><li>Chat &amp; wiki</li></ul>
        <pre>ssh-keygen -t ed25519
cat ~/.ssh/id_ed25519.pub</pre></body></html>"""

    document = add_document(crew.writer, title="Onboarding", content_base64=encoded(html), content_type="text/html")[
        "document"
    ]

    chunks = chunks_of(crew.writer, document["id"])
    text = "\n".join(c["text"] for c in chunks)
    assert [c["heading"] for c in chunks] == ["Onboarding", "Onboarding › Accounts"]
    assert "New members get a laptop on their first day." in text
    assert "- Chat & wiki" in text
    assert "ssh-keygen -t ed25519\ncat ~/.ssh/id_ed25519.pub" in text
    assert "alert" not in text and "color: red" not in text


@pytest.mark.parametrize(
    ("params", "field", "code"),
    [
        (
            {"content_base64": "not base64 at all!", "content_type": "application/pdf"},
            "content_base64",
            "invalid_base64",
        ),
        (
            {"content_base64": encoded(b"%PDF-1.7 broken"), "content_type": "application/pdf"},
            "content_base64",
            "unreadable_pdf",
        ),
        ({"content_base64": encoded(b"<p>x</p>")}, "content_type", "required"),
        ({"content_base64": encoded(b"x"), "content_type": "image/png"}, "content_type", "invalid_choice"),
        ({"text": "x", "content_base64": encoded(b"x"), "content_type": "text/html"}, "text", "text_or_file"),
        ({"text": "   \n  "}, "text", "empty_document"),
        ({"text": "# Title", "title": "  "}, "title", "blank"),
    ],
)
def test_bad_input_is_a_400_naming_its_field(crew, params, field, code):
    refused = add_document(crew.writer, expect=400, **params)

    assert (refused["error"]["field"], refused["error"]["code"]) == (field, code)
    assert not Document.objects.exists()


@override_settings(HELIX_MAX_DOCUMENT_BYTES=2048)
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"text": "word " * 1000}, "text"),
        ({"content_base64": encoded(b"<p>" + b"x" * 4000 + b"</p>"), "content_type": "text/html"}, "content_base64"),
    ],
)
def test_a_document_over_the_size_limit_is_a_400_naming_its_field(crew, params, field):
    refused = add_document(crew.writer, expect=400, **params)

    assert refused["error"] == {
        "code": "document_too_large",
        "message": "The document is larger than 2048 bytes (HELIX_MAX_DOCUMENT_BYTES).",
        "field": field,
        "limit": 2048,
    }


def test_a_viewer_cannot_add_a_document(crew):
    refused = add_document(crew.viewer, expect=403)

    assert refused["error"]["code"] == "forbidden"
    assert not Document.objects.exists()


def test_chunks_are_embedded_with_their_title_and_headings(crew):
    document = add_document(crew.writer)["document"]

    rollback = Chunk.objects.get(document_id=document["id"], position=1)
    embedded = f"Deploy runbook › Rollback\n\n{rollback.text}"
    expected = get_embedder().embed([embedded], purpose="test")[0]
    assert np.allclose(np.asarray(rollback.embedding), expected, atol=1e-5)


def test_a_chunk_keeps_its_vector_in_its_row(crew):
    """As a memory does (tests/memory/test_vector_storage.py): scoring a chunk reads no TOAST table."""
    document = add_document(crew.writer)["document"]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), count(*) FILTER (WHERE pg_column_toast_chunk_id(embedding) IS NOT NULL) "
            "FROM documents_chunk WHERE document_id = %s",
            [document["id"]],
        )
        chunks, vectors_out_of_line = cursor.fetchone()
    assert chunks > 0 and vectors_out_of_line == 0

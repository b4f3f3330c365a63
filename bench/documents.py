"""add_document and search_memory(include_chunks) with the local embedder.

Ingest: one generated Markdown document of BENCH_DOCUMENT_PAGES pages (default 100, about 3 KB
of headings, paragraphs, lists and code a page) added through the add_document service, timed
whole (reading, chunking, embedding, one transaction a chunk) and reported in chunks a second,
with the embedding alone beside it; then it is deleted again.

Acceptance: what an add_document call itself does before it answers (the worker reads a file and
stores the chunks afterwards): a document of HELIX_MAX_DOCUMENT_BYTES of Markdown, a PDF holding
as much text, and a PDF whose one stream inflates to 70 MB, each timed through the service the
call runs, in a transaction rolled back; for the files, the worker's reading of their text too
(the bomb is refused there).

Search: a library of at least BENCH_DOCUMENT_CHUNKS chunks (default 3000, documents of ten owners,
kept between runs; every owner holds the same handbooks, so the model embeds each distinct chunk
once and a large library loads in minutes) beside BENCH_DOCUMENT_MEMORIES memories of the same owners; QUERIES searches,
each new (the query cache never answers), timed with and without include_chunks, alternately.
"""

from __future__ import annotations

import io
import os
import random
import time
import zlib

from django.conf import settings
from django.db import transaction
from pypdf import PdfWriter
from pypdf.generic import DictionaryObject, NameObject, NumberObject, StreamObject

from bench.corpus import ITEMS, PEOPLE, PLACES, TOOLS
from bench.setup import prepared, remembering_embedder
from bench.timing import percentiles
from helixsite.errors import InvalidInput
from memory.documents import services
from memory.documents.chunks import chunk_place, chunk_text
from memory.documents.formats import document_read
from memory.documents.models import Chunk, Document
from memory.documents.services import DocumentInput, document_accept, document_add
from memory.providers import get_embedder
from memory.search.conductor import memory_search
from memory.search.corpus import corpus_fold
from memory.vector_indexes import owner_indexes_refresh
from rbac.models import Workspace

WORKSPACE = "bench-documents"
OWNERS = 10
QUERIES = 200
PAGE_CHARS = 3000


def run() -> None:
    pages = int(os.environ.get("BENCH_DOCUMENT_PAGES", "100"))
    chunks = int(os.environ.get("BENCH_DOCUMENT_CHUNKS", "3000"))
    memories = int(os.environ.get("BENCH_DOCUMENT_MEMORIES", "2000"))
    actor = prepared(workspace=WORKSPACE, memories=memories, principal=WORKSPACE)
    get_embedder().embed(["warm up the model"], purpose="bench")
    _acceptance(actor)
    _ingest(actor, pages)
    _library(actor, chunks)
    # As the worker does every minute: a library loaded without a worker would otherwise be
    # searched against millions of unfolded statistics deltas.
    corpus_fold(wait=True)
    # As the worker does every five minutes: the largest owners' vector indexes (built once).
    started = time.perf_counter()
    done = owner_indexes_refresh()
    print(f"the owners' vector indexes: {done} in {time.perf_counter() - started:.1f} s")
    _search(actor)


class _RolledBack(Exception):
    pass


def _acceptance(actor) -> None:
    limit = settings.HELIX_MAX_DOCUMENT_BYTES
    markdown = manual(400, seed=7)
    markdown = markdown[: markdown.rfind("\n", 0, limit - 1024)]
    line = "The orchard cooperative reported a harvest larger than last year's by a third, again."
    lines = [f"{n} {line}" for n in range(int(limit * 0.9) // (len(line) + 8))]
    cases = {
        f"Markdown, {len(markdown.encode()) / 1024:.0f} KB": DocumentInput(user_id=_owner(0), title="m", text=markdown),
        f"PDF, {len(lines) * (len(line) + 4) / 1024:.0f} KB of text": DocumentInput(
            user_id=_owner(0),
            title="p",
            data=_pdf([lines[i : i + 50] for i in range(0, len(lines), 50)]),
            content_type="application/pdf",
        ),
        "PDF whose stream inflates to 70 MB": DocumentInput(
            user_id=_owner(0), title="b", data=_pdf([["bomb"]], padding=70_000_000), content_type="application/pdf"
        ),
    }
    print("add_document acceptance (the call's part: a text read and cut, a file opened; stored pending, queued),")
    print("and for a file the worker's reading of its text:")
    for name, given in cases.items():
        started = time.perf_counter()
        try:
            with transaction.atomic():
                added = document_accept(actor=actor, given=given, group_id=WORKSPACE)
                outcome = f"{added.document.status}, {added.document.chunks_total or '?'} chunks to store"
                raise _RolledBack
        except _RolledBack:
            pass
        except InvalidInput as refused:
            outcome = f"refused: {refused.code}"
        line = f"  {name}: the call {(time.perf_counter() - started) * 1000:.0f} ms ({outcome})"
        if given.data is not None:
            started = time.perf_counter()
            try:
                read = f"{len(document_read(text=None, data=given.data, content_type=given.content_type).text)} chars"
            except InvalidInput as refused:
                read = f"refused: {refused.code}"
            line += f"; the worker reads it in {(time.perf_counter() - started) * 1000:.0f} ms ({read})"
        print(line)


def _pdf(pages: list[list[str]], *, padding: int = 0) -> bytes:
    """A PDF writing ``pages``' lines in Helvetica, its content streams compressed; ``padding``
    bytes of positioning operators inflate the first page's stream."""
    writer = PdfWriter()
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    fonts = DictionaryObject({NameObject("/F1"): writer._add_object(font)})
    for number, lines in enumerate(pages):
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
        shown = " ".join(f"({line}) Tj 0 -14 Td" for line in lines)
        filler = b"0 0 Td " * (padding // 7) if number == 0 else b""
        stream = StreamObject()
        stream._data = zlib.compress(b"BT /F1 10 Tf 72 740 Td " + filler + shown.encode() + b" ET", 6)
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        stream[NameObject("/Length")] = NumberObject(len(stream._data))
        page[NameObject("/Contents")] = writer._add_object(stream)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _ingest(actor, pages: int) -> None:
    text = manual(pages, seed=int(time.time()))
    title = f"Operations manual {time.time_ns()}"
    started = time.perf_counter()
    added = document_add(
        actor=actor, given=DocumentInput(user_id=_owner(0), title=title, text=text), group_id=WORKSPACE
    )
    seconds = time.perf_counter() - started
    document = added.document
    cuts = chunk_text(
        text, size=settings.HELIX_DOCUMENT_CHUNK_CHARS, overlap=settings.HELIX_DOCUMENT_CHUNK_OVERLAP, page_starts=[]
    )
    inputs = [f"{chunk_place(title, c.heading)}\n\n{text[c.char_start : c.char_end]}" for c in cuts]
    embedding_started = time.perf_counter()
    get_embedder().embed(inputs, purpose="bench")
    embedding = time.perf_counter() - embedding_started
    print(
        f"add_document, {pages} pages ({len(text.encode()) / 1024:.0f} KB of Markdown, {document.chunks_total} chunks "
        f"of ≤{settings.HELIX_DOCUMENT_CHUNK_CHARS} chars): {seconds:.2f} s, "
        f"{document.chunks_total / seconds:.1f} chunks/s ({document.status}); "
        f"the embedding alone: {embedding:.2f} s, {len(inputs) / embedding:.1f} chunks/s"
    )
    Document.objects.filter(pk=document.pk).delete()


def _library(actor, size: int) -> None:
    """Every owner gets the same handbooks, in turn: the model embeds each distinct chunk once."""
    have, started = _in_space().count(), time.perf_counter()
    added = Document.objects.live().filter(rbac_scope=_scope()).count()
    first = added
    with remembering_embedder(services):
        while have < size:
            shared = 100_000 + added // OWNERS  # apart from the seeds of libraries loaded one per owner
            given = DocumentInput(user_id=_owner(added), title=f"Manual {shared}", text=manual(20, seed=shared))
            have += document_add(actor=actor, given=given, group_id=WORKSPACE).document.chunks_done
            added += 1
    if added > first:
        print(f"library: {added - first} documents added in {time.perf_counter() - started:.0f} s")


def _owner(n: int) -> str:
    """The owners of bench.setup's memories are user00, user01, …"""
    return f"user{n % OWNERS:02d}"


def _search(actor) -> None:
    rng = random.Random(time.time_ns())
    memory_search(actor=actor, query="warm up", user_id=_owner(0), include_chunks=True)
    plain, with_chunks = [], []
    for n in range(QUERIES):
        user = _owner(rng.randrange(OWNERS))
        query = _question(rng, n)
        for include, samples in ((False, plain), (True, with_chunks)):
            started = time.perf_counter()
            memory_search(actor=actor, query=f"{query} ({include})", user_id=user, include_chunks=include)
            samples.append((time.perf_counter() - started) * 1000)
    chunks, documents = _in_space().count(), Document.objects.live().filter(rbac_scope=_scope()).count()
    print(f"search_memory, {QUERIES} queries, personal scope, {chunks:,} chunks in {documents} documents:")
    print(f"  memories only:       {percentiles(plain)} ms")
    print(f"  include_chunks=true: {percentiles(with_chunks)} ms")


def manual(pages: int, *, seed: int) -> str:
    """A Markdown manual of about ``pages`` × 3 KB: chapters, sections, prose, lists, code."""
    rng = random.Random(seed)
    parts: list[str] = [f"# Operations manual {seed}\n"]
    size, chapter = 0, 0
    while size < pages * PAGE_CHARS:
        chapter += 1
        parts.append(f"## Chapter {chapter}: {rng.choice(TOOLS)} in {rng.choice(PLACES)}\n")
        for section in range(rng.randrange(2, 5)):
            parts.append(f"### {chapter}.{section + 1} {rng.choice(ITEMS).title()} and {rng.choice(TOOLS)}\n")
            for _ in range(rng.randrange(2, 5)):
                parts.append(_paragraph(rng) + "\n")
            if rng.random() < 0.3:
                parts.append("\n".join(f"- {_sentence(rng)}" for _ in range(rng.randrange(3, 6))) + "\n")
            if rng.random() < 0.2:
                host = f"node-{rng.randrange(1, 999)}"
                parts.append(f"```sh\nssh {host}\nsystemctl restart {rng.choice(TOOLS).lower()}\n```\n")
        size = sum(len(p) + 1 for p in parts)
    return "\n".join(parts)


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randrange(3, 7)))


def _sentence(rng: random.Random) -> str:
    shapes = [
        "{p} checks the {t} dashboard in {c} every {n} minutes.",
        "When {t} on node-{n} is slow, {p} restarts it after draining the queue.",
        "The {c} team keeps {i} notes for incident {n}.",
        "Backups of {t} run at {n}:00 and are copied to {c}.",
        "{p} approved the {t} upgrade for release {n}.",
    ]
    return rng.choice(shapes).format(
        p=rng.choice(PEOPLE), t=rng.choice(TOOLS), c=rng.choice(PLACES), i=rng.choice(ITEMS), n=rng.randrange(2, 999)
    )


def _question(rng: random.Random, n: int) -> str:
    shapes = [
        "who restarts {t} when node-{k} is slow",
        "where are the {t} backups copied",
        "which team keeps {i} notes",
        "who approved the {t} upgrade",
    ]
    text = rng.choice(shapes).format(t=rng.choice(TOOLS), i=rng.choice(ITEMS), k=rng.randrange(2, 999))
    return f"{text} {n}"


def _scope() -> str:
    return f"rbac:group:{Workspace.objects.get(slug=WORKSPACE).id}"


def _in_space():
    return Chunk.objects.filter(document__rbac_scope=_scope(), deleted_at__isnull=True, superseded_at__isnull=True)

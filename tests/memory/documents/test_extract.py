"""add_document(extract=true): each chunk goes through add_memory's pipeline, and the memories
it writes cite the chunk they came from in search_memory(include_chunks=true)."""

from __future__ import annotations

import pytest

from memory.documents.models import Chunk, ExtractedFrom
from memory.models import Memory
from tests.memory.documents.conftest import add_document

pytestmark = pytest.mark.django_db

PROFILE = """# About Ada

Ada lives in Lisbon. Ada prefers green tea over coffee.

## Work

Ada works at the harbour authority as a data engineer.
"""


@pytest.fixture
def extracted(crew, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]


def test_each_chunk_gives_memories_linked_to_it(crew, extracted):
    chunks = {c.position: c for c in Chunk.objects.filter(document_id=extracted["id"])}
    links = ExtractedFrom.objects.filter(chunk__document_id=extracted["id"]).select_related("memory", "chunk")
    by_chunk = {(link.chunk.position, link.memory.content) for link in links}

    assert extracted["extract"] is True and all(c.extracted_at is not None for c in chunks.values())
    assert any(position == 0 and "Lisbon" in content for position, content in by_chunk)
    assert any(position == 1 and "harbour authority" in content for position, content in by_chunk)
    assert not Memory.objects.filter(content__contains="#").exists(), "a heading is not a statement"
    lisbon = next(link.memory for link in links if "Lisbon" in link.memory.content)
    assert (lisbon.user_id, lisbon.metadata) == ("ada", {"document_id": extracted["id"], "chunk_index": 0})


def test_a_memory_from_a_chunk_carries_the_chunks_citation_in_search(crew, extracted):
    results = crew.viewer.call("search_memory", user_id="ada", query="where does ada live", include_chunks=True).json()

    lisbon = next(r for r in results["results"] if r["kind"] == "memory" and "Lisbon" in r["content"])
    assert lisbon["citation"]["document_id"] == extracted["id"]
    assert lisbon["citation"]["chunk_index"] == 0
    assert PROFILE[lisbon["citation"]["char_start"] : lisbon["citation"]["char_end"]].startswith("# About Ada")


def test_adding_the_same_document_again_extracts_nothing_more(crew, extracted):
    before = Memory.objects.count()

    again = add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)

    assert again["outcome"] == "unchanged"
    assert Memory.objects.count() == before

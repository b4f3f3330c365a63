"""add_document against a real server and worker: the call answers once the document is read and
accepted (pending, its chunks counted, none stored), nothing more happens without a worker, and a
django-q2 cluster then stores every chunk, which get_document follows to complete and search
finds. Embeddings come from a stub endpoint on loopback, so no process loads a model."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from memory.documents.models import Chunk, Document
from tests.openai_compatible_server import OpenAICompatibleServer
from tests.processes import worker_cluster
from tests.reliability.conftest import Server, answer_of
from tests.reliability.test_buffered_writes import stub_embedding

pytestmark = pytest.mark.slow

DEADLINE = 300  # every wait, generous

SECTION = """## Harbour {n}

The harbour office {n} opens at seven and closes at six. Boats moored at pier {n} pay by the
night, and the harbour master keeps the keys to the fuel pump in the blue cabinet.
"""


@pytest.fixture
def server_settings() -> Iterator[dict[str, str]]:
    with OpenAICompatibleServer() as stub:
        stub.queue("/v1/embeddings", *[stub_embedding] * 500)
        yield {"HELIX_EMBEDDINGS": "openai", "HELIX_EMBEDDING_BASE_URL": stub.base_url}


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {DEADLINE} s"
        time.sleep(0.2)


def test_a_document_is_accepted_at_once_and_stored_by_the_worker(server: Server, server_settings):
    text = "# Harbour handbook\n\n" + "\n".join(SECTION.format(n=n) for n in range(300))

    answer = answer_of(server.call("add_document", user_id="bob", group_id="team", title="Harbours", text=text))

    accepted = answer["document"]
    assert (answer["outcome"], accepted["status"], accepted["chunks_done"]) == ("created", "pending", 0)
    assert accepted["chunks_total"] >= 100
    document_id = accepted["id"]
    time.sleep(1)  # no worker runs: nothing is stored meanwhile
    assert not Chunk.objects.filter(document_id=document_id).exists()

    with worker_cluster(**server_settings):
        wait_for(lambda: Document.objects.get(pk=document_id).status == "complete", "the document stored")

    stored = answer_of(server.call("get_document", document_id=document_id, limit=1))["document"]
    assert (stored["status"], stored["chunks_done"], stored["error"]) == ("complete", accepted["chunks_total"], "")
    found = answer_of(
        server.call("search_memory", user_id="bob", query="who keeps the keys to the fuel pump", include_chunks=True)
    )
    assert any(r.get("citation", {}).get("document_id") == document_id for r in found["results"])

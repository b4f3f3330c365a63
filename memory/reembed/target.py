"""The embedding space a re-embed moves to: checked as given, then probed with one text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings

from helixsite.errors import ApplicationError, InvalidInput
from helixsite.runtime.credentials import credentials_decrypted
from memory.providers import Embedder, ProviderError
from memory.providers.embeddings import LocalEmbedder, OpenAIEmbedder

PROVIDERS = ("local", "openai")
LOCAL_MODEL = "all-MiniLM-L6-v2"
LOCAL_DIMENSION = 384
# pgvector's HNSW index takes vectors of at most this many dimensions.
MAX_DIMENSION = 2000
_URL = re.compile(r"https?://[^\s/]+(/\S*)?")


@dataclass(frozen=True)
class Target:
    provider: str
    model: str
    dimension: int
    base_url: str = ""

    def __str__(self) -> str:
        return f"{self.provider}:{self.model} ({self.dimension}-d)"

    def settings_lines(self) -> list[str]:
        """The configuration a process needs to embed in this space."""
        lines = [
            f"HELIX_EMBEDDINGS={self.provider}",
            f"HELIX_EMBEDDING_MODEL={self.model}",
            f"HELIX_EMBEDDING_DIM={self.dimension}",
        ]
        return lines + ([f"HELIX_EMBEDDING_BASE_URL={self.base_url}"] if self.base_url else [])

    def command_options(self) -> list[str]:
        """The options of ``manage.py reembed`` that name this target."""
        if self.provider == "local":
            return ["--provider", "local"]
        options = ["--provider", self.provider, "--model", self.model, "--dimension", str(self.dimension)]
        return options + (["--base-url", self.base_url] if self.base_url else [])


def target_parse(*, provider: str, model: str | None, dimension: int | None, base_url: str | None) -> Target:
    """The target as an operator names it; every refusal names the option at fault."""
    if provider not in PROVIDERS:
        raise InvalidInput(f"--provider must be one of: {', '.join(PROVIDERS)}.", field="provider")
    if provider == "local":
        return _local(model, dimension, base_url)
    if not model or len(model) > 200 or any(ch.isspace() for ch in model):
        raise InvalidInput(
            "--model is required with --provider openai: one word of at most 200 characters.", field="model"
        )
    if dimension is None:
        raise InvalidInput(
            "--dimension is required with --provider openai: the model's vector size.", field="dimension"
        )
    _check_dimension(dimension)
    url = base_url or settings.HELIX_EMBEDDING_BASE_URL
    if not _URL.fullmatch(url) or len(url) > 500:
        raise InvalidInput(f"--base-url {url!r} is not an http:// or https:// URL.", field="base_url")
    return Target(provider="openai", model=model, dimension=dimension, base_url=url.rstrip("/"))


def _local(model: str | None, dimension: int | None, base_url: str | None) -> Target:
    if model not in (None, LOCAL_MODEL):
        raise InvalidInput(f"The local provider runs {LOCAL_MODEL} only; leave out --model.", field="model")
    if dimension not in (None, LOCAL_DIMENSION):
        raise InvalidInput(
            f"{LOCAL_MODEL} gives {LOCAL_DIMENSION}-d vectors; leave out --dimension.", field="dimension"
        )
    if base_url:
        raise InvalidInput("--base-url is for --provider openai.", field="base_url")
    return Target(provider="local", model=LOCAL_MODEL, dimension=LOCAL_DIMENSION)


def _check_dimension(dimension: int) -> None:
    if not 1 <= dimension <= MAX_DIMENSION:
        raise InvalidInput(
            f"--dimension must be from 1 to {MAX_DIMENSION} (the most pgvector's HNSW index takes).", field="dimension"
        )


def target_embedder(target: Target) -> Embedder:
    """An embedder for the target, with this installation's timeouts, retries and batch size."""
    if target.provider == "local":
        return LocalEmbedder(
            model=target.model,
            dimension=target.dimension,
            batch_size=settings.HELIX_EMBEDDING_BATCH_SIZE,
            threads=settings.HELIX_EMBEDDING_THREADS,
            cache_dir=settings.HELIX_DATA_DIR / "models",
        )
    return OpenAIEmbedder(
        base_url=target.base_url,
        api_key=_api_key(),
        model=target.model,
        dimension=target.dimension,
        timeout=settings.HELIX_EMBEDDING_TIMEOUT,
        max_retries=settings.HELIX_EMBEDDING_MAX_RETRIES,
        batch_size=settings.HELIX_EMBEDDING_BATCH_SIZE,
    )


def _api_key() -> str | None:
    """HELIX_REEMBED_API_KEY, else HELIX_EMBEDDING_API_KEY from the environment, else as stored in the room."""
    return (
        settings.HELIX_REEMBED_API_KEY
        or settings.HELIX_EMBEDDING_API_KEY
        or credentials_decrypted().get("HELIX_EMBEDDING_API_KEY")
    )


def target_probe(target: Target, embedder: Embedder) -> None:
    """One text through the target model, so an unreachable endpoint, a wrong key or another
    dimension is told before anything is written."""
    try:
        embedder.embed(["a probe of the embedding model"], purpose="reembed")
    except ProviderError as exc:
        raise ApplicationError(f"The target model {target} cannot be used: {exc}", code=exc.code, status=503) from exc

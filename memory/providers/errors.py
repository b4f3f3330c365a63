"""Typed provider failures. Callers turn them into ``embedding_unavailable`` / ``llm_unavailable``."""


class ProviderError(Exception):
    code = "provider_unavailable"


class EmbeddingUnavailable(ProviderError):
    code = "embedding_unavailable"


class LLMUnavailable(ProviderError):
    code = "llm_unavailable"


class LLMBadOutput(LLMUnavailable):
    """The model answered, twice, with something that is not the JSON asked for."""

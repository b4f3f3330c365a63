"""Calls to remote providers: bounded retries with backoff, one ledger row per attempt."""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import openai

from memory.models import Inference

logger = logging.getLogger(__name__)
T = TypeVar("T")

BACKOFF_BASE_SECONDS = 0.5
BACKOFF_CAP_SECONDS = 8.0
RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)


@dataclass(frozen=True)
class CallSite:
    kind: str
    provider: str
    model: str
    purpose: str
    run_id: uuid.UUID | None = None


@dataclass(frozen=True)
class Usage:
    input_tokens: int | None = None
    output_tokens: int | None = None


class OutputRejected(Exception):
    """The provider answered, but with output the caller cannot use. Not retried here."""

    def __init__(self, problem: str, *, raw: str, usage: Usage) -> None:
        super().__init__(problem)
        self.problem = problem
        self.raw = raw
        self.usage = usage


def call_with_retries(
    site: CallSite, call: Callable[[], tuple[T, Usage]], *, max_retries: int, error_type: type[Exception]
) -> T:
    """Run ``call`` up to ``max_retries + 1`` times, retrying rate limits, 5xx and timeouts.

    Raises ``error_type`` (a ProviderError) once attempts run out or on a non-retryable error.
    """
    for attempt in range(1, max_retries + 2):
        started = time.perf_counter()
        try:
            result, usage = call()
        except OutputRejected as exc:
            _record(site, attempt, started, exc.usage, error=f"bad output: {exc.problem}")
            raise
        except openai.OpenAIError as exc:
            _record(site, attempt, started, Usage(), error=_describe(exc))
            if not isinstance(exc, RETRYABLE) or attempt > max_retries:
                raise error_type(f"{site.provider} {site.kind} call failed: {_describe(exc)}") from exc
            time.sleep(_backoff_seconds(attempt, exc))
            continue
        _record(site, attempt, started, usage, error="")
        return result
    raise AssertionError("unreachable: the loop returns or raises")


def _record(site: CallSite, attempt: int, started: float, usage: Usage, *, error: str) -> None:
    Inference.objects.create(
        kind=site.kind,
        provider=site.provider,
        model=site.model,
        purpose=site.purpose,
        attempt=attempt,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        latency_ms=round((time.perf_counter() - started) * 1000, 2),
        ok=not error,
        error=error[:500],
        run_id=site.run_id,
    )


def _backoff_seconds(attempt: int, exc: Exception) -> float:
    retry_after = _retry_after(exc)
    if retry_after is not None:
        return min(retry_after, BACKOFF_CAP_SECONDS)
    delay = min(BACKOFF_BASE_SECONDS * 2 ** (attempt - 1), BACKOFF_CAP_SECONDS)
    return delay * (0.8 + 0.4 * random.random())


def _retry_after(exc: Exception) -> float | None:
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None


def _describe(exc: openai.OpenAIError) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIStatusError):
        return f"http {exc.status_code}"
    if isinstance(exc, openai.APIConnectionError):
        return "connection failed"
    return exc.__class__.__name__

"""LLM providers: ``none`` (rules do the work) and ``openai`` (any OpenAI-compatible
chat endpoint: OpenAI, vLLM, Ollama, llama.cpp server).

``complete_json`` returns an instance of a pydantic model. A reply that is not valid
JSON for that model gets one repair request; a second bad reply raises LLMBadOutput,
and the caller falls back to its rules.
"""

from __future__ import annotations

import json
import uuid
from typing import Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from memory.providers.errors import LLMBadOutput, LLMUnavailable
from memory.providers.remote import CallSite, OutputRejected, Usage, call_with_retries

M = TypeVar("M", bound=BaseModel)


class CallBudget:
    """Caps the LLM requests one operation may make (a repair request counts)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    @property
    def left(self) -> int:
        return self.limit - self.used

    def spend(self) -> None:
        if self.used >= self.limit:
            raise LLMUnavailable(f"the LLM call budget of {self.limit} for this operation is spent")
        self.used += 1


class LLM(Protocol):
    enabled: bool
    provider: str
    model: str

    def complete_json(
        self,
        *,
        purpose: str,
        system: str,
        prompt: str,
        schema: type[M],
        run_id: uuid.UUID | None = None,
        budget: CallBudget | None = None,
    ) -> M: ...


class NoLLM:
    """The ``none`` provider: callers check ``enabled`` and use their deterministic rules."""

    enabled = False
    provider = "none"
    model = ""

    def complete_json(
        self,
        *,
        purpose: str,
        system: str,
        prompt: str,
        schema: type[M],
        run_id: uuid.UUID | None = None,
        budget: CallBudget | None = None,
    ) -> M:
        raise LLMUnavailable("no LLM is configured (HELIX_LLM=none)")


class OpenAILLM:
    enabled = True
    provider = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None,
        model: str,
        timeout: float,
        max_retries: int,
        json_mode: bool,
        temperature: float,
    ) -> None:
        import openai

        self.model = model
        self.max_retries = max_retries
        self.json_mode = json_mode
        self.temperature = temperature
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout, max_retries=0)

    def complete_json(
        self,
        *,
        purpose: str,
        system: str,
        prompt: str,
        schema: type[M],
        run_id: uuid.UUID | None = None,
        budget: CallBudget | None = None,
    ) -> M:
        budget = budget or CallBudget(2)
        schema_text = json.dumps(schema.model_json_schema())
        messages = [
            {
                "role": "system",
                "content": f"{system}\n\nReply with one JSON object matching this JSON schema:\n{schema_text}",
            },
            {"role": "user", "content": prompt},
        ]
        site = CallSite(kind="chat", provider=self.provider, model=self.model, purpose=purpose, run_id=run_id)
        try:
            budget.spend()
            return self._ask(site, messages, schema)
        except OutputRejected as first:
            messages += [
                {"role": "assistant", "content": first.raw},
                {
                    "role": "user",
                    "content": f"That reply was not usable ({first.problem}). Reply again with only the JSON object.",
                },
            ]
        try:
            budget.spend()
            return self._ask(site, messages, schema)
        except OutputRejected as second:
            raise LLMBadOutput(
                f"the model's reply was not valid JSON for {schema.__name__} after one repair: {second.problem}"
            ) from second

    def _ask(self, site: CallSite, messages: list[dict], schema: type[M]) -> M:
        return call_with_retries(
            site, lambda: self._chat(messages, schema), max_retries=self.max_retries, error_type=LLMUnavailable
        )

    def _chat(self, messages: list[dict], schema: type[M]) -> tuple[M, Usage]:
        kwargs: dict = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if self.json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        response = self._client.chat.completions.create(**kwargs)
        text = (response.choices[0].message.content or "") if response.choices else ""
        usage = Usage(
            input_tokens=response.usage.prompt_tokens if response.usage else None,
            output_tokens=response.usage.completion_tokens if response.usage else None,
        )
        try:
            return schema.model_validate_json(_strip_fences(text)), usage
        except ValidationError as exc:
            raise OutputRejected(_summarize(exc), raw=text, usage=usage) from exc


def _strip_fences(text: str) -> str:
    """Some local models wrap JSON in a Markdown code fence despite being asked not to."""
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        stripped = stripped.rsplit("```", 1)[0]
    return stripped.strip()


def _summarize(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "reply"
    return f"{where}: {first.get('msg', 'invalid')}"
